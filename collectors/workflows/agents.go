package workflows

import (
	"strings"
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
}

// agentAction returns the agent an action runs, or "".
func agentAction(name string) string {
	if strings.HasPrefix(name, "./") || strings.HasPrefix(name, "docker://") {
		return ""
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
	for _, h := range agentNameHints {
		if strings.Contains(parts[1], h.hint) {
			return h.tool
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

// agentCLIs maps an executable name to the agent it runs.
var agentCLIs = map[string]string{
	"claude": "claude-code", "codex": "codex", "gemini": "gemini", "aider": "aider",
	"opencode": "opencode", "cursor-agent": "cursor", "copilot": "copilot", "qwen": "qwen",
	"openhands": "openhands",
}

// agentPackages maps npm/PyPI packages run through npx/bunx/uvx/pipx.
var agentPackages = map[string]string{
	"@anthropic-ai/claude-code": "claude", "@openai/codex": "codex", "@google/gemini-cli": "gemini",
	"opencode-ai": "opencode", "@github/copilot": "copilot", "@qwen-code/qwen-code": "qwen",
	"aider-chat": "aider", "openhands-ai": "openhands",
}

// notRuns are subcommands and flags that configure or inspect an agent CLI
// without running the agent.
var notRuns = map[string]bool{
	"--version": true, "-v": true, "-V": true, "--help": true, "-h": true, "help": true, "version": true,
	"mcp": true, "config": true, "update": true, "doctor": true, "install": true, "login": true,
	"logout": true, "setup-token": true, "completion": true, "extensions": true, "migrate-installer": true,
}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "exec": true, "env": true, "time": true, "nohup": true, "command": true, "stdbuf": true}

// agentCommand recognises an agent CLI invocation in one simple command and
// returns the tool and its arguments.
func agentCommand(words []string) (string, []string) {
	i := exeIndex(words)
	if i < 0 {
		return "", nil
	}
	exe := words[i]
	rest := words[i+1:]
	base := exe[strings.LastIndex(exe, "/")+1:]
	switch base {
	case "npx", "bunx", "uvx", "pipx", "pnpm", "yarn":
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || rest[0] == "dlx" || rest[0] == "run") {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return "", nil
		}
		pkg := rest[0]
		if at := strings.LastIndex(pkg, "@"); at > 0 {
			pkg = pkg[:at]
		}
		base, rest = agentPackages[pkg], rest[1:]
	}
	tool, ok := agentCLIs[base]
	if !ok {
		return "", nil
	}
	if len(rest) > 0 && notRuns[rest[0]] {
		return "", nil
	}
	return tool, rest
}

// exeIndex returns the index of the executable of a simple command, past
// variable assignments and wrappers (sudo, env, timeout 30…); -1 when none.
func exeIndex(words []string) int {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case isAssignment(w), wrappers[w], strings.HasPrefix(w, "-") && i > 0 && wrappers[words[i-1]]:
		case w == "timeout" && i+1 < len(words):
			i++
		default:
			return i
		}
	}
	return -1
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for _, r := range w[:eq] {
		if !(r == '_' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}
