package workflows

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
)

func TestMalformed(t *testing.T) {
	bomb := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n"
		prev = n
	}
	bomb += "on: push\njobs:\n  x:\n    env: *i\n    steps:\n      - run: claude -p hi\n"
	tests := []struct {
		name, src string
		wantErr   bool
		line      int
	}{
		{"bad syntax", "on: push\njobs:\n  a: [\n", true, 3},
		{"tab indent", "on: push\njobs:\n\ta: 1\n", true, 3},
		{"binary", "\x00\x01\xff\xfe", true, 0},
		{"alias bomb", bomb, true, 0},
		{"self reference", "on: push\njobs:\n  a: &j\n    steps:\n      - run: claude -p x\n    env: {k: *j}\n", false, 0},
		{"not a mapping", "- a\n- b\n", false, 0},
		{"no jobs", "name: x\non: push\n", false, 0},
		{"empty", "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			doc, err := collect(t, tt.src)
			if time.Since(start) > 2*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			var pe *collectors.ParseError
			if tt.wantErr {
				if !errors.As(err, &pe) {
					t.Fatalf("err = %v, want a ParseError", err)
				}
				if tt.line != 0 && pe.Line != tt.line {
					t.Errorf("line = %d, want %d (%v)", pe.Line, tt.line, err)
				}
				return
			}
			if err != nil && !errors.As(err, &pe) {
				t.Fatalf("err = %v", err)
			}
			if tt.name != "self reference" && len(doc.Workflows) != 0 {
				t.Errorf("got %d workflows, want none", len(doc.Workflows))
			}
		})
	}
}

func FuzzCollect(f *testing.F) {
	for _, s := range []string{
		agentJob("    runs-on: [self-hosted]\n    permissions: write-all\n", "        with:\n          claude_args: --permission-mode bypassPermissions\n"),
		"on: [push]\njobs:\n  a:\n    steps:\n      - run: |\n          codex exec --yolo \\\n            hi\n",
		"a: &a [*a]\njobs: {x: {steps: [*a]}}\n",
		"on: workflow_run\njobs:\n  a:\n    container: {image: x, options: --privileged -v /var/run/docker.sock:/s}\n    steps:\n      - uses: google-github-actions/run-gemini-cli@v0\n        with:\n          settings: '{\"tools\": {\"core\": [${{ x }}]}, \"mcpServers\": {\"a\": {\"command\": \"npx\"}}}'\n",
		"on: push\njobs:\n  a:\n    steps:\n      - run: echo ${{ secrets.A }} >> $GITHUB_ENV\n      - uses: anthropics/claude-code-action@v1\n        with:\n          claude_args: --settings '{\"permissions\": {\"allow\": [\"Bash\"]}}' --mcp-config '{\"mcpServers\": {}}'\n",
	} {
		f.Add([]byte(s))
	}
	fuzzcheck.Seed(f, []string{"../../fixtures/workflows/.github/workflows/*.yml"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), wfPath, data, fuzzcheck.Options{})
		if err != nil {
			return
		}
		for _, wf := range doc.Workflows {
			if wf.File != wfPath || !wf.RunsAgent && !wf.CopilotSetup {
				t.Fatalf("inconsistent workflow %+v", wf)
			}
			for _, j := range wf.Jobs {
				if j.File != wfPath || len(j.EffectiveWrite) == 0 && j.Permissions == nil && wf.Permissions == nil {
					t.Fatalf("inconsistent job %+v", j)
				}
			}
		}
		for _, a := range doc.Agents {
			if a.Scope != "workflow" || a.File != wfPath || a.Line < 1 || a.Context == "" {
				t.Fatalf("inconsistent step agent %+v", a)
			}
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" || c.Line < 1 {
				t.Fatalf("credential without fingerprint or line: %+v", c)
			}
		}
	})
}

// fuzzSeeds are workflows shaped like the ones that run agents: the Claude
// and Codex actions with their inputs, CLI agents in run steps, reusable
// workflows, matrices and pull_request_target triggers.
var fuzzSeeds = []string{
	`name: Claude review
on:
  pull_request_target:
    types: [opened, synchronize]
  issue_comment:
    types: [created]
permissions:
  contents: read
jobs:
  review:
    if: contains(github.event.comment.body, '@claude')
    runs-on: ubuntu-latest
    timeout-minutes: 20
    permissions:
      contents: write
      pull-requests: write
      id-token: write
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.pull_request.head.sha }}
          persist-credentials: true
      - uses: anthropics/claude-code-action@v1
        with:
          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}
          claude_args: |
            --allowedTools "Bash(npm test:*),Edit"
            --max-turns 10
`,
	`on:
  schedule: [{cron: "17 3 * * *"}]
  workflow_dispatch: {}
jobs:
  nightly:
    strategy:
      matrix: {node: [20, 22]}
    runs-on: [self-hosted, linux]
    env:
      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}
    steps:
      - uses: actions/setup-node@v4
        with: {node-version: "${{ matrix.node }}"}
      - name: Codex
        run: |
          npm i -g @openai/codex
          codex exec --full-auto --sandbox danger-full-access "fix the flaky test"
      - run: git push origin HEAD:refs/heads/codex/nightly
`,
	`on: push
jobs:
  call:
    uses: ./.github/workflows/agent-reusable.yml
    secrets: inherit
  gemini:
    runs-on: ubuntu-latest
    permissions: write-all
    steps:
      - uses: google-github-actions/run-gemini-cli@v0
        with: {gemini_api_key: "${{ secrets.GEMINI_API_KEY }}", settings: '{"tools": {"sandbox": false}}'}
`,
	"on: [push]\njobs:\n  a:\n    steps: [{run: null}, 1, {uses: null}, {run: [claude]}]\n    permissions: {contents: [write]}\n",
}
