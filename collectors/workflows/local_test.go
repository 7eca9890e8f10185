package workflows

import (
	"context"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestLocalAgentAction: an action of the repository itself (uses: ./) is
// the agent's when its inputs are an agent's, and pinned (it is the
// workflow's own commit); one with other inputs is not an agent step. A
// secret named for a setting is marked so.
func TestLocalAgentAction(t *testing.T) {
	const src = `name: test
on: pull_request
jobs:
  review:
    runs-on: ubuntu-24.04
    steps:
      - uses: ./
        with:
          openai-api-key: ${{ secrets.OPENAI_KEY }}
          custom-model: ${{ secrets.CUSTOM_MODEL }}
          prompt: review this
  build:
    runs-on: ubuntu-24.04
    steps:
      - uses: ./.github/actions/setup
        with:
          node-version: 22
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/test.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workflows) != 1 {
		t.Fatalf("workflows = %d, want 1", len(doc.Workflows))
	}
	var steps []model.AgentStep
	for _, j := range doc.Workflows[0].Jobs {
		steps = append(steps, j.AgentSteps...)
	}
	if len(steps) != 1 || steps[0].Tool != "codex" || !steps[0].Pinned || steps[0].Line != 7 {
		t.Fatalf("agent steps = %+v, want one codex step at line 7, pinned", steps)
	}
	setting := map[string]bool{}
	for _, s := range steps[0].Secrets {
		setting[s.Name] = s.Setting
	}
	if len(setting) != 2 || setting["OPENAI_KEY"] || !setting["CUSTOM_MODEL"] {
		t.Errorf("secrets' setting flags = %v, want OPENAI_KEY a credential, CUSTOM_MODEL a setting", setting)
	}
}
