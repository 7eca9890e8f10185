package workflows

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestJobContainer: options and volumes that hand the job's container the
// runner are listed, each at its line; harmless ones are not.
func TestJobContainer(t *testing.T) {
	tests := []struct {
		name, keys string
		want       *model.JobContainer
	}{
		{"image only", "    container: node:22\n", &model.JobContainer{
			Image: &model.Str{Value: "node:22", Loc: model.Loc{File: wfPath, Line: 4}}, Loc: model.Loc{File: wfPath, Line: 4},
		}},
		{"privileges", `    container:
      image: node:22
      options: >-
        --cpus 2 --privileged --cap-add=SYS_ADMIN --cap-add NET_BIND_SERVICE
        --network host --security-opt seccomp=unconfined -v /etc:/host-etc
      volumes:
        - /var/run/docker.sock:/var/run/docker.sock
        - my_data:/data
        - /srv/cache:/cache
`, &model.JobContainer{
			Image: &model.Str{Value: "node:22", Loc: model.Loc{File: wfPath, Line: 5}},
			Loc:   model.Loc{File: wfPath, Line: 4},
			Privileges: []model.Str{
				// A folded scalar (>-) keeps no line breaks: its first line.
				{Value: "--privileged", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "--cap-add SYS_ADMIN", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "--cap-add NET_BIND_SERVICE", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "--network host", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "--security-opt seccomp=unconfined", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "volume /etc", Loc: model.Loc{File: wfPath, Line: 7}},
				{Value: "volume /var/run/docker.sock", Loc: model.Loc{File: wfPath, Line: 10}},
			},
		}},
		{"privileged dind service", `    services:
      docker:
        image: docker:27-dind
        options: --privileged
      db:
        image: postgres:16
        options: --privileged
`, &model.JobContainer{
			Loc:        model.Loc{File: wfPath, Line: 5},
			Privileges: []model.Str{{Value: "service docker: privileged docker-in-docker", Loc: model.Loc{File: wfPath, Line: 7}}},
		}},
		{"no container", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := oneJob(t, agentJob(tt.keys, ""))
			if diff := cmp.Diff(tt.want, j.Container); diff != "" {
				t.Errorf("container (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStateRestores: a cache or another run's artifact that brings back an
// agent's state; a dependency cache or this run's artifact does not.
func TestStateRestores(t *testing.T) {
	steps := `      - uses: actions/cache@v4
        with:
          path: |
            ~/.npm
            ~/.codex/sessions
          key: k
      - uses: actions/cache/restore@v4
        with:
          path: node_modules
          key: k
      - uses: actions/download-artifact@v4
        with:
          name: memory
          path: ~/.gemini
      - uses: actions/download-artifact@v4
        with:
          name: memory
          path: .aider.chat.history.md
          run-id: ${{ inputs.run }}
          github-token: ${{ github.token }}
      - run: gh run download 42 -n state --dir "$HOME/.claude"
      - run: gh run download 42 -n report -D out
`
	j := oneJob(t, agentJob("", steps))
	want := []model.Str{
		{Value: "actions/cache@v4 restores ~/.codex/sessions", Loc: model.Loc{File: wfPath, Line: 10}},
		{Value: "actions/download-artifact@v4 restores .aider.chat.history.md", Loc: model.Loc{File: wfPath, Line: 23}},
		{Value: "gh run download restores $HOME/.claude", Loc: model.Loc{File: wfPath, Line: 26}},
	}
	if diff := cmp.Diff(want, j.StateRestores); diff != "" {
		t.Errorf("state restores (-want +got):\n%s", diff)
	}
}

func TestAgentStatePath(t *testing.T) {
	for p, want := range map[string]bool{
		"~/.claude":                    true,
		"${{ env.HOME }}/.claude.json": true,
		"/home/runner/.gemini/tmp":     true,
		".aider.tags.cache.v4":         true,
		"~/.local/share/opencode":      true,
		"~/.config/goose":              true,
		"!~/.claude/todos":             false,
		"~/.npm":                       false,
		"src/claude":                   false,
		"# ~/.claude":                  false,
	} {
		if got := agentStatePath(p); got != want {
			t.Errorf("agentStatePath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestWorkflowRunAndCheckoutRepository: the workflow_run trigger and the
// repository a checkout fetches are kept for the workflow_run rule.
func TestWorkflowRunAndCheckoutRepository(t *testing.T) {
	doc, err := collect(t, `on:
  workflow_run:
    workflows: [CI]
jobs:
  a:
    steps:
      - uses: actions/checkout@v4
        with:
          repository: ${{ github.event.workflow_run.head_repository.full_name }}
          ref: ${{ github.event.workflow_run.head_sha }}
      - run: claude -p fix
`)
	if err != nil || len(doc.Workflows) != 1 {
		t.Fatalf("Collect = %v, %+v", err, doc.Workflows)
	}
	wf := doc.Workflows[0]
	if diff := cmp.Diff(&model.Str{Value: "workflow_run", Loc: model.Loc{File: wfPath, Line: 2}}, wf.WorkflowRun); diff != "" {
		t.Errorf("workflow_run (-want +got):\n%s", diff)
	}
	co := wf.Jobs[0].Checkouts[0]
	if co.Repository != "${{ github.event.workflow_run.head_repository.full_name }}" || co.Ref != "${{ github.event.workflow_run.head_sha }}" {
		t.Errorf("checkout = %+v", co)
	}
}

// TestCheckoutRefThroughEnv: a ref written as ${{ env.X }} is the value the
// env gives X, so the workflow_run rule sees what is checked out.
func TestCheckoutRefThroughEnv(t *testing.T) {
	j := oneJob(t, agentJob("    env:\n      HEAD: ${{ github.event.workflow_run.head_sha }}\n",
		"      - uses: actions/checkout@v4\n        with:\n          ref: ${{ env.HEAD }}\n          repository: ${{ env.UNSET }}\n"))
	co := j.Checkouts[0]
	if co.Ref != "${{ github.event.workflow_run.head_sha }}" || co.Repository != "${{ env.UNSET }}" {
		t.Errorf("checkout ref %q repository %q", co.Ref, co.Repository)
	}
}

// TestCodexArgsJSON: codex-args may be a JSON array of strings.
func TestCodexArgsJSON(t *testing.T) {
	doc, err := collect(t, `on: push
jobs:
  a:
    steps:
      - uses: openai/codex-action@v1
        with:
          codex-args: '["--config","sandbox_mode=\"danger-full-access\""]'
`)
	if err != nil || len(doc.Agents) != 1 {
		t.Fatalf("Collect = %v, agents %+v", err, doc.Agents)
	}
	if m := doc.Agents[0].SandboxMode; m == nil || m.Value != "danger-full-access" || m.Line != 7 {
		t.Errorf("sandbox mode = %+v", m)
	}
}

// TestPRCheckouts: a run step that checks out a pull request's code.
func TestPRCheckouts(t *testing.T) {
	src := `on: issue_comment
jobs:
  a:
    steps:
      - run: gh pr checkout ${{ github.event.issue.number }}
        env:
          GH_TOKEN: ${{ github.token }}
      - run: |
          git fetch origin pull/${{ github.event.issue.number }}/head:pr
          git fetch origin "refs/pull/$PR/merge"
          git fetch origin main
          gh pr view 12
      - run: claude -p "fix it"
`
	var doc model.Document
	if err := New().Collect(context.Background(), ".github/workflows/a.yml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, s := range doc.Workflows[0].Jobs[0].PRCheckouts {
		got = append(got, s.Line)
	}
	if want := []int{5, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("pr checkouts at lines %v, want %v", got, want)
	}
}
