package workflows

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// stepAgentView is the part of a step's agents[] entry a rule reads.
type stepAgentView struct {
	Line                int
	Tool                string
	Allow, Deny, Tools  []string
	RuleLine            int // line of the first allow rule
	Approval, Raw       string
	Sandbox             string
	SandboxOn, HasScope bool
}

func viewAgent(a model.Agent) stepAgentView {
	v := stepAgentView{Line: a.Line, Tool: a.Tool, HasScope: a.Scope == "workflow" && a.Context != ""}
	for _, r := range a.Allow {
		v.Allow = append(v.Allow, r.Value)
	}
	if len(a.Allow) > 0 {
		v.RuleLine = a.Allow[0].Line
	}
	for _, r := range a.Deny {
		v.Deny = append(v.Deny, r.Value)
	}
	for _, r := range a.Tools {
		v.Tools = append(v.Tools, r.Value)
	}
	if a.ApprovalMode != nil {
		v.Approval = a.ApprovalMode.Value
	}
	if a.ApprovalRaw != nil {
		v.Raw = a.ApprovalRaw.Value
	}
	if a.SandboxMode != nil {
		v.Sandbox = a.SandboxMode.Value
	}
	v.SandboxOn = a.SandboxEnabled != nil && a.SandboxEnabled.Value
	return v
}

// TestStepAgents: each agent step's inputs and CLI flags become an agents[]
// entry at the step, with the defaults the action adds.
func TestStepAgents(t *testing.T) {
	tests := []struct {
		file string
		want []stepAgentView
	}{
		{"claude-args-insecure.yml", []stepAgentView{{
			Line: 31, Tool: "claude-code", HasScope: true, RuleLine: 39,
			// The settings input first, claude_args over it.
			Allow: []string{"Bash(gh pr merge:*)", "Bash(git push:*)", "Edit"},
		}}},
		{"claude-args-hardened.yml", []stepAgentView{{
			Line: 29, Tool: "claude-code", HasScope: true, RuleLine: 33,
			Allow: []string{"Bash(gh pr diff:*)", "Bash(gh pr view:*)"}, Deny: []string{"Bash(git push:*)"},
		}}},
		{"gemini-insecure.yml", []stepAgentView{{
			Line: 15, Tool: "gemini", HasScope: true,
			Approval: "bypass", Raw: "--yolo (run-gemini-cli passes it on every run)",
		}}},
		{"gemini-hardened.yml", []stepAgentView{{
			Line: 23, Tool: "gemini", HasScope: true,
			Tools:    []string{"run_shell_command(git diff)", "run_shell_command(cat)", "read_file"},
			Approval: "bypass", Raw: "--yolo (run-gemini-cli passes it on every run)",
		}}},
		{"codex-action-insecure.yml", []stepAgentView{{Line: 14, Tool: "codex", HasScope: true, Sandbox: "danger-full-access"}}},
		{"codex-action-hardened.yml", []stepAgentView{{Line: 16, Tool: "codex", HasScope: true, Sandbox: "read-only", SandboxOn: true}}},
		{"agent-cli-insecure.yml", []stepAgentView{
			{Line: 35, Tool: "claude-code", HasScope: true, Approval: "bypass", Raw: "--dangerously-skip-permissions"},
			{Line: 36, Tool: "gemini", HasScope: true, Approval: "bypass", Raw: "--yolo"},
			{Line: 37, Tool: "aider", HasScope: true, Approval: "bypass", Raw: "--yes-always"},
			{Line: 38, Tool: "copilot", HasScope: true, Approval: "bypass", Raw: "--allow-all-tools"},
			{Line: 39, Tool: "cursor", HasScope: true, Approval: "bypass", Raw: "--force"},
			{Line: 40, Tool: "opencode", HasScope: true, Approval: "bypass", Raw: "--auto"},
		}},
		{"agent-cli-hardened.yml", []stepAgentView{{
			Line: 24, Tool: "claude-code", HasScope: true, RuleLine: 24,
			Allow: []string{"Read", "Bash(npm test:*)"},
		}}},
		{"codex-nightly.yml", []stepAgentView{{
			Line: 14, Tool: "codex", HasScope: true, Sandbox: "danger-full-access",
			Approval: "bypass", Raw: "--dangerously-bypass-approvals-and-sandbox",
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			doc, _ := collectFile(t, tt.file)
			var got []stepAgentView
			for _, a := range doc.Agents {
				got = append(got, viewAgent(a))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("agents (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInlineMCPConfig: an --mcp-config given as JSON adds its servers.
func TestInlineMCPConfig(t *testing.T) {
	doc, p := collectFile(t, "claude-args-insecure.yml")
	if len(doc.MCPServers) != 1 {
		t.Fatalf("MCP servers = %+v, want the docs server", doc.MCPServers)
	}
	s := doc.MCPServers[0]
	if s.Name != "docs" || s.Config != "workflow" || s.File != p || s.Line != 44 || s.Pinned || s.Package != "docs-mcp" {
		t.Errorf("server = %+v", s)
	}
}

// TestSettingsInputWithExpressions: ${{ }} outside a JSON string (as the
// run-gemini-cli examples write) does not stop the settings from being read,
// and the lines are the workflow's.
func TestSettingsInputWithExpressions(t *testing.T) {
	doc, err := collect(t, `on: push
jobs:
  a:
    steps:
      - uses: google-github-actions/run-gemini-cli@v0
        with:
          settings: |-
            {
              "telemetry": {"enabled": ${{ vars.T != '' }}},
              "coreTools": ["run_shell_command(echo)"],
              "mcpServers": {"gh": {"command": "docker", "args": ["run", "ghcr.io/github/github-mcp-server"], "env": {"T": "${{ secrets.X }}"}}}
            }
`)
	if err != nil || len(doc.Agents) != 1 {
		t.Fatalf("Collect = %v, agents %+v", err, doc.Agents)
	}
	a := doc.Agents[0]
	want := []model.Str{{Value: "run_shell_command(echo)", Loc: model.Loc{File: wfPath, Line: 10}}}
	if diff := cmp.Diff(want, a.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if len(doc.MCPServers) != 1 || doc.MCPServers[0].Line != 11 {
		t.Errorf("MCP servers = %+v, want gh at line 11", doc.MCPServers)
	}
}

func TestSplitTools(t *testing.T) {
	loc := model.Loc{File: wfPath, Line: 3}
	var got []string
	for _, s := range splitTools(`Bash(gh pr comment:*),Read Edit,,mcp__github__get_issue $(cat p.md) "quoted"`, loc) {
		got = append(got, s.Value)
	}
	want := []string{"Bash(gh pr comment:*)", "Read", "Edit", "mcp__github__get_issue"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestBlankExpressions(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": ${{ vars.X != '' }}, "b": "${{ secrets.Y }}"}`: `{"a": null, "b": "${{ secrets.Y }}"}`,
		`{"a": "x\"${{ y }}"}`:                                `{"a": "x\"${{ y }}"}`,
		"{\"a\": ${{ x ||\n y }}}":                            "{\"a\": null\n}",
		`{"a": ${{ unterminated`:                              `{"a": ${{ unterminated`,
	} {
		if got := blankExpressions(in); got != want {
			t.Errorf("blankExpressions(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWrapperAction: another repository's action that takes an input only
// an agent CLI takes runs an agent; a model API key alone says nothing.
func TestWrapperAction(t *testing.T) {
	for _, tt := range []struct {
		uses  string
		with  []string
		agent string
	}{
		{"my-org/.github/actions/claude-pr-assistant@main", []string{"claude_code_oauth_token"}, "claude-code"},
		{"my-org/agents/review@v2", []string{"claude_args", "github_token"}, "claude-code"},
		{"my-org/ai-summary@v1", []string{"anthropic_api_key"}, ""},
		{"actions/setup-node@v4", []string{"node-version"}, ""},
		{"acme/shared-workflows/.github/workflows/claude-review.yml@0123456789abcdef0123456789abcdef01234567", nil, "claude-code"},
		{"acme/shared-workflows/.github/workflows/gemini.yml@main", nil, "gemini"},
		{"acme/shared-workflows/.github/workflows/ci.yml@v1", nil, ""},
		{"acme/claude-review/.github/workflows/pr-review.yml@v3", nil, "claude-code"},
		// an action in a directory of another repository, named for an agent
		{"acme/ci/actions/claude", nil, "claude-code"},
		{"acme/ci/.github/actions/gemini-triage", nil, "gemini"},
		{"acme/ci/actions/lint", nil, ""},
		{"github/codeql-action/init", nil, ""},
		// inputs written with hyphens or in capitals
		{"my-org/agents/review", []string{"Claude-Code-OAuth-Token"}, "claude-code"},
		// the repository's own action: by its directory, its inputs or the
		// variables its step sets
		{"./.github/actions/claude-review", nil, "claude-code"},
		{"./.github/workflows/gemini-review.yml", nil, ""}, // audited as a workflow itself
		{"./.github/actions/review", []string{"claude-code-oauth-token"}, "claude-code"},
		{"./.github/actions/review", []string{"env:CLAUDE_CODE_OAUTH_TOKEN"}, "claude-code"},
		{"./.github/actions/build", []string{"env:GITHUB_TOKEN"}, ""},
		// names that hold an agent's as a part of a word, or a cursor of
		// another kind; a model key in a local action's env (any AI
		// script reads one)
		{"./.github/actions/setup-cursor-pagination", nil, ""},
		{"./tools/db-cursor", nil, ""},
		{"acme/ci-actions/precursor", nil, ""},
		{"acme/ci/actions/raider", nil, ""},
		{"acme/raider-action", nil, ""},
		{"acme/aider-action", nil, "aider"},
		{"acme/my-claude-code-fork", nil, "claude-code"},
		{"./.github/actions/run-cursor-agent", nil, "cursor"},
		{"acme/ci/actions/gemini_triage", nil, "gemini"},
		{"./.github/actions/summarise", []string{"env:OPENAI_API_KEY"}, ""},
		{"./.github/actions/summarise", []string{"env:ANTHROPIC_API_KEY"}, ""},
		// a remote action's steps inherit its step's variables
		{"my-org/ai-summary", []string{"env:CLAUDE_CODE_OAUTH_TOKEN"}, "claude-code"},
		{"my-org/ai-summary", []string{"env:ANTHROPIC_API_KEY"}, ""},
		{"jingkaihe/kodelet-action", []string{"anthropic-api-key"}, "kodelet"},
	} {
		with, env := map[string]bool{}, map[string]bool{}
		for _, w := range tt.with {
			if v, ok := strings.CutPrefix(w, "env:"); ok {
				env[v] = true
			} else {
				with[w] = true
			}
		}
		if got := stepAgent(tt.uses, with, env); got != tt.agent {
			t.Errorf("%s with %v: agent %q, want %q", tt.uses, tt.with, got, tt.agent)
		}
	}
}

// TestSelectedAgent: an action that runs one of several agents is told
// which by an input; only an agent's name written out selects one.
func TestSelectedAgent(t *testing.T) {
	for _, tt := range []struct{ with, want string }{
		{"agent: claude", "claude-code"},
		{"Agent-Type: Codex", "codex"},
		{"coding_agent: claude-code", "claude-code"},
		{"agent: gemini", "gemini"},
		{"agent: ${{ inputs.agent }}", ""},
		{"agent: build-bot", ""},
		{"model: claude", ""},
		{"agent:\n  - claude", ""},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tt.with), &n); err != nil {
			t.Fatal(err)
		}
		if got := selectedAgent(n.Content[0]); got != tt.want {
			t.Errorf("%q: agent %q, want %q", tt.with, got, tt.want)
		}
	}
	// End to end: the step is an agent step.
	j := oneJob(t, "on: push\njobs:\n  a:\n    steps:\n      - uses: acme/review-action@v1\n        with:\n          agent: claude\n")
	if len(j.AgentSteps) != 1 || j.AgentSteps[0].Tool != "claude-code" {
		t.Errorf("agent steps = %+v, want the selector step as claude-code", j.AgentSteps)
	}
}

// TestForkLoginIsModelKey: a claude-code-action fork's subscription login
// inputs are the agent's own credential, not extra secrets.
func TestForkLoginIsModelKey(t *testing.T) {
	for _, in := range []string{"claude_access_token", "claude_refresh_token", "claude_expires_at"} {
		if !isModelKey("claude-code", model.AgentSecret{Name: "X", Via: "input", To: in}, false) {
			t.Errorf("%s is not the model credential", in)
		}
	}
	if isModelKey("claude-code", model.AgentSecret{Name: "DEPLOY_KEY", Via: "input", To: "deploy_key"}, false) {
		t.Error("deploy_key taken for the model credential")
	}
}

// OpenHands reads its model's key as LLM_API_KEY: the agent's own key.
func TestOpenHandsModelKey(t *testing.T) {
	if !modelEnvOf("openhands", "LLM_API_KEY") || modelEnvOf("codex", "LLM_API_KEY") || modelEnvOf("openhands", "PAT_TOKEN") {
		t.Errorf("model keys: openhands LLM_API_KEY %v, codex LLM_API_KEY %v, openhands PAT_TOKEN %v",
			modelEnvOf("openhands", "LLM_API_KEY"), modelEnvOf("codex", "LLM_API_KEY"), modelEnvOf("openhands", "PAT_TOKEN"))
	}
}

// An action that takes the model key by another input name (aider's
// api_key_env_value) is still handed the agent's own key; a deploy token
// under such an input is not.
func TestModelKeyUnderOtherInput(t *testing.T) {
	if !isModelKey("aider", model.AgentSecret{Name: "OPENROUTER_API_KEY", Via: "input", To: "api_key_env_value"}, false) {
		t.Error("OPENROUTER_API_KEY as api_key_env_value is not the model key")
	}
	if isModelKey("aider", model.AgentSecret{Name: "NPM_TOKEN", Via: "input", To: "api_key_env_value"}, false) {
		t.Error("NPM_TOKEN taken for the model key")
	}
}

// claude-code-action v1 dropped allowed_tools (moved to claude_args
// --allowedTools): at v1 or later the input grants nothing; before, or at
// a branch or commit, it is read.
func TestClaudeActionAllowedToolsByVersion(t *testing.T) {
	for ref, want := range map[string]int{"v1": 0, "v1.0.110": 0, "v2": 0, "beta": 1, "v0.0.63": 1, "0123456789abcdef0123456789abcdef01234567": 1} {
		src := "on: issue_comment\njobs:\n  a:\n    steps:\n      - uses: anthropics/claude-code-action@" + ref + "\n        with:\n          allowed_tools: \"Bash(make *)\"\n"
		doc, err := collect(t, src)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, a := range doc.Agents {
			got += len(a.Allow)
		}
		if got != want {
			t.Errorf("@%s: %d allow rules, want %d", ref, got, want)
		}
	}
}

// An agent's own login file, written by an earlier step from a secret
// (CODEX_AUTH_JSON_B64 into ~/.codex/auth.json, GEMINI_OAUTH_CREDS), is its
// model credential; OpenCode's Zen key too. Another agent's login is not.
func TestLoginFileIsModelKey(t *testing.T) {
	for _, c := range []struct {
		tool, name string
		want       bool
	}{
		{"codex", "CODEX_AUTH_JSON", true}, {"codex", "CODEX_AUTH_JSON_B64", true},
		{"gemini", "GEMINI_OAUTH_CREDS", true}, {"claude-code", "CLAUDE_CREDENTIALS_JSON", true},
		{"opencode", "OPENCODE_API_KEY", true},
		{"claude-code", "CODEX_AUTH_JSON", false}, {"codex", "DEPLOY_KEY_JSON", false},
	} {
		if got := isModelKey(c.tool, model.AgentSecret{Name: c.name, Via: "file"}, false); got != c.want {
			t.Errorf("%s %s: model key %v, want %v", c.tool, c.name, got, c.want)
		}
	}
}

// TestAgentInCommandInput: an action given a command line to run (a local
// composite action's run_cmd, devcontainers/ci's runCmd) that starts an
// agent CLI is an agent step, with the flags, pushes and secrets of that
// step; a command input that starts no agent, or a prompt that names one,
// is not.
func TestAgentInCommandInput(t *testing.T) {
	j := oneJob(t, `on: issues
jobs:
  a:
    steps:
      - uses: ./.github/actions/run-in-container
        with:
          env: |
            GH_TOKEN=${{ secrets.PAT }}
          run_cmd: |
            codex exec --dangerously-bypass-approvals-and-sandbox "$PROMPT"
            git push origin HEAD
      - uses: devcontainers/ci@v0.3
        with:
          runCmd: npm test
      - uses: acme/review@v1
        with:
          prompt: claude should review this
`)
	if len(j.AgentSteps) != 1 || j.AgentSteps[0].Tool != "codex" || j.AgentSteps[0].Line != 10 {
		t.Fatalf("agent steps = %+v, want codex at line 10", j.AgentSteps)
	}
	st := j.AgentSteps[0]
	if st.PermissionMode == nil || len(j.Pushes) != 1 {
		t.Errorf("permission mode %+v, pushes %+v", st.PermissionMode, j.Pushes)
	}
	var names []string
	for _, s := range st.Secrets {
		names = append(names, s.Name+" "+s.Via)
	}
	if diff := cmp.Diff([]string{"PAT input"}, names); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}
