package workflows

import (
	"context"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestCompositeAction: a repository's own action.yml that runs an agent is
// read like a workflow job; one that does not adds no workflow.
func TestCompositeAction(t *testing.T) {
	c := New()
	if !c.Match("tools/agent/action.yml") || !c.Match("action.yaml") || c.Match("tools/action.json") {
		t.Fatal("Match does not take composite actions")
	}
	agent := []byte(`name: run-agent
runs:
  using: composite
  steps:
    - uses: actions/checkout@v4
    - uses: anthropics/claude-code-action@v1
      with:
        allowed_bots: "*"
`)
	doc := &model.Document{}
	if err := c.Collect(context.Background(), "action.yml", agent, doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workflows) != 1 || len(doc.Workflows[0].Jobs) != 1 {
		t.Fatalf("workflows = %+v", doc.Workflows)
	}
	j := doc.Workflows[0].Jobs[0]
	if !j.RunsAgent || len(j.AgentSteps) != 1 || j.AgentSteps[0].Line != 6 || len(j.Checkouts) != 1 || len(j.EffectiveWrite) != 0 {
		t.Fatalf("job = %+v", j)
	}
	plain := []byte("name: build\nruns:\n  using: composite\n  steps:\n    - run: go build ./...\n      shell: bash\n")
	doc = &model.Document{}
	if err := c.Collect(context.Background(), "action.yml", plain, doc); err != nil || len(doc.Workflows) != 0 {
		t.Fatalf("plain composite action: err %v, workflows %+v", err, doc.Workflows)
	}
	js := []byte("name: js\nruns:\n  using: node20\n  main: index.js\n")
	doc = &model.Document{}
	if err := c.Collect(context.Background(), "action.yml", js, doc); err != nil || len(doc.Workflows) != 0 {
		t.Fatalf("node action: err %v, workflows %+v", err, doc.Workflows)
	}
}
