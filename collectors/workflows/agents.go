package workflows

import (
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
)

// agentActions are actions (and reusable workflows) that run a coding agent,
// by lowercased owner/repo[/path] prefix. Keep this list current: a missing
// entry hides a whole workflow from the audit.
var agentActions = []struct{ prefix, tool string }{
	{"anthropics/claude-code-action", "claude-code"},
	{"anthropics/claude-code-base-action", "claude-code"},
	{"openai/codex-action", "codex"},
	{"google-github-actions/run-gemini-cli", "gemini"},
	{"google-gemini/gemini-cli-action", "gemini"},
	{"all-hands-ai/openhands", "openhands"},
	{"openhands/openhands", "openhands"},
	{"sst/opencode/github", "opencode"},
	{"anomalyco/opencode/github", "opencode"},
	{"qodo-ai/pr-agent", "pr-agent"},
	{"qwenlm/qwen-code-action", "qwen"},
}

// agentNameHints catch forks and lesser-known agent actions by repo name.
var agentNameHints = []struct{ hint, tool string }{
	{"claude-code", "claude-code"},
	{"codex", "codex"},
	{"gemini-cli", "gemini"},
	{"cursor-agent", "cursor"},
	{"cursor-cli", "cursor"},
	{"copilot-cli", "copilot"},
	{"copilot-agent", "copilot"},
	{"aider", "aider"},
	{"openhands", "openhands"},
	{"opencode", "opencode"},
	{"kodelet", "kodelet"},
}

// workflowNameHints name the agent a reusable workflow or an action in a
// directory runs by its file or directory name, as whole words. "cursor"
// alone names database and pagination cursors too.
var workflowNameHints = []struct{ hint, tool string }{
	{"claude", "claude-code"},
	{"codex", "codex"},
	{"gemini", "gemini"},
	{"openhands", "openhands"},
	{"opencode", "opencode"},
	{"aider", "aider"},
	{"cursor-agent", "cursor"},
	{"cursor-cli", "cursor"},
}

// agentAction returns the agent an action runs, or "".
func agentAction(name string) string {
	if strings.HasPrefix(name, "docker://") {
		return ""
	}
	if strings.HasPrefix(name, "./") {
		// The repository's own action in a directory named for an agent
		// (./.github/actions/claude-review). Its own reusable workflows
		// are not: each is audited as a workflow of the scan, with the
		// secrets it names.
		if strings.HasPrefix(name, "./.github/workflows/") {
			return ""
		}
		return nameHint(path.Base(name))
	}
	for _, a := range agentActions {
		if name == a.prefix || strings.HasPrefix(name, a.prefix+"/") {
			return a.tool
		}
	}
	parts := strings.SplitN(name, "/", 3)
	if len(parts) < 2 {
		return ""
	}
	if len(parts) == 3 {
		// An action in a directory of another repository named for an
		// agent (acme/ci/actions/claude), or another repository's
		// reusable workflow named for one by its file or its repository
		// (acme/shared/.github/workflows/claude-review.yml,
		// acme/claude-review/.github/workflows/pr.yml): an organisation's
		// agent job, shared by every repository that calls it.
		if tool := nameHint(path.Base(parts[2])); tool != "" {
			return tool
		}
		if strings.HasPrefix(parts[2], ".github/workflows/") {
			if tool := nameHint(parts[1]); tool != "" {
				return tool
			}
		}
	}
	for _, h := range agentNameHints {
		if hasWords(words(parts[1]), words(h.hint)) {
			return h.tool
		}
	}
	return ""
}

// words are a name's lowercased runs of letters and digits.
func words(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}

// hasWords reports seq as consecutive words of ws.
func hasWords(ws, seq []string) bool {
	for i := 0; i+len(seq) <= len(ws); i++ {
		if slices.Equal(ws[i:i+len(seq)], seq) {
			return true
		}
	}
	return false
}

// nameHint is the agent a file or directory name is named for, or "": a
// hint must be whole words of the name (claude-review, gemini_triage.yml),
// not a part of one (precursor, raider).
func nameHint(name string) string {
	ws := words(name)
	for _, h := range workflowNameHints {
		if hasWords(ws, words(h.hint)) {
			return h.tool
		}
	}
	return ""
}

// localAgentInputs name, for an action of the repository itself (uses: ./),
// the agent it runs by the inputs it takes: an agent's own action is tested
// that way in its repository, and forks run their copy so.
var localAgentInputs = []struct{ input, tool string }{
	{"anthropic_api_key", "claude-code"},
	{"claude_code_oauth_token", "claude-code"},
	{"claude_args", "claude-code"},
	{"openai_api_key", "codex"},
	{"codex_args", "codex"},
	{"gemini_api_key", "gemini"},
	{"gemini_cli_version", "gemini"},
}

// wrapperAgentInputs name the agent a remote action runs by inputs no
// other action takes (a model API key alone does not: AI review and
// summarising actions take those too).
var wrapperAgentInputs = []struct{ input, tool string }{
	{"claude_code_oauth_token", "claude-code"},
	{"claude_args", "claude-code"},
	{"codex_args", "codex"},
	{"gemini_cli_version", "gemini"},
}

// stepAgent is the agent a step's action runs: a known or agent-named
// action, or an action whose inputs are an agent's. Input and variable
// names compare without case and with - as _ (GEMINI_API_KEY is
// gemini_api_key, claude-code-oauth-token claude_code_oauth_token); env
// names the variables the step sets, which a local action reads as well.
func stepAgent(name string, with, env map[string]bool) string {
	if tool := agentAction(name); tool != "" {
		return tool
	}
	has := func(names map[string]bool, want string) bool {
		for n := range names {
			if strings.ReplaceAll(strings.ToLower(n), "-", "_") == want {
				return true
			}
		}
		return false
	}
	if !strings.HasPrefix(name, "./") {
		// Another repository's action (an organisation's wrapper of an
		// agent's action) runs an agent when it takes an input only an
		// agent CLI takes: Claude Code's subscription token or CLI flags
		// (the token may come as a variable of the step, which the
		// action's own steps inherit).
		for _, a := range wrapperAgentInputs {
			if has(with, a.input) || has(env, a.input) {
				return a.tool
			}
		}
		return ""
	}
	for _, a := range localAgentInputs {
		if has(with, a.input) {
			return a.tool
		}
	}
	// A variable only an agent CLI reads (a model API key is read by any
	// AI tool, and by the repository's own scripts).
	for _, a := range wrapperAgentInputs {
		if has(env, a.input) {
			return a.tool
		}
	}
	return ""
}

// agentSelectors are inputs by which an action that runs one of several
// agents is told which (agent: claude, coding-agent: codex); compared
// without case and with - as _.
var agentSelectors = map[string]bool{"agent": true, "agent_type": true, "coding_agent": true, "agent_cli": true, "cli": true}

// selectedAgent is the agent a step's selector input names, or "": the
// value must be an agent CLI's name (claude, claude-code, codex, gemini…),
// written out, not an expression.
func selectedAgent(with *yaml.Node) string {
	for _, kv := range pairs(with) {
		if !agentSelectors[strings.ReplaceAll(strings.ToLower(kv[0].Value), "-", "_")] || kv[1].Kind != yaml.ScalarNode {
			continue
		}
		v := strings.ToLower(strings.TrimSpace(kv[1].Value))
		if v == "claude-code" {
			return "claude-code"
		}
		if tool, ok := agentcli.CLIs[v]; ok {
			return tool
		}
	}
	return ""
}

// autoMergeActions merge or approve pull requests without a person.
var autoMergeActions = []string{
	"pascalgn/automerge-action",
	"peter-evans/enable-pull-request-automerge",
	"hmarr/auto-approve-action",
	"juliangruber/approve-pull-request-action",
	"ahmadnassri/action-dependabot-auto-merge",
	"fastify/github-action-merge-dependabot",
	"reitermarkus/automerge",
	"pascalgn/merge-action",
	"actions-ecosystem/action-merge",
	"kalgurn/auto-merge",
}

func autoMergeAction(name string) bool {
	for _, a := range autoMergeActions {
		if name == a || strings.HasPrefix(name, a+"/") {
			return true
		}
	}
	parts := strings.SplitN(name, "/", 3)
	if len(parts) < 2 {
		return false
	}
	for _, h := range []string{"automerge", "auto-merge", "auto-approve", "approve-pull-request"} {
		if strings.Contains(parts[1], h) {
			return true
		}
	}
	return false
}
