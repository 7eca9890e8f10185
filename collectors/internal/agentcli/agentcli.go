// Package agentcli recognises the command lines that start a coding agent:
// the agent CLIs (claude, codex, gemini, aider, goose, opencode…) and the
// package runners that fetch them (npx @anthropic-ai/claude-code…). The
// workflow collector uses it for run: steps, the role pass for a
// container's entrypoint and command.
package agentcli

import (
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// CLIs maps an executable name to the agent it runs.
var CLIs = map[string]string{
	"claude": "claude-code", "codex": "codex", "gemini": "gemini", "aider": "aider",
	"opencode": "opencode", "cursor-agent": "cursor", "copilot": "copilot", "qwen": "qwen",
	"openhands": "openhands", "goose": "goose", "vibe": "vibe",
}

// Packages maps npm/PyPI packages run through npx/bunx/uvx/pipx to the
// executable they install.
var Packages = map[string]string{
	"@anthropic-ai/claude-code": "claude", "@openai/codex": "codex", "@google/gemini-cli": "gemini",
	"opencode-ai": "opencode", "@github/copilot": "copilot", "@qwen-code/qwen-code": "qwen",
	"aider-chat": "aider", "openhands-ai": "openhands", "mistral-vibe": "vibe",
}

// notRuns are subcommands and flags that configure or inspect an agent CLI
// without running the agent.
var notRuns = map[string]bool{
	"--version": true, "-v": true, "-V": true, "--help": true, "-h": true, "help": true, "version": true,
	"mcp": true, "config": true, "update": true, "doctor": true, "install": true, "login": true,
	"logout": true, "setup-token": true, "completion": true, "extensions": true, "migrate-installer": true,
}

// runners run the command after their run subcommand.
var runners = map[string]bool{"poetry": true, "uv": true, "pdm": true, "pipenv": true, "hatch": true, "rye": true}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "exec": true, "env": true, "time": true, "nohup": true, "command": true, "stdbuf": true}

// Command recognises an agent CLI invocation in one simple command (its
// words) and returns the tool and its arguments; "" when it runs none.
func Command(words []string) (string, []string) { return CommandWith(words, nil) }

// CommandWith is Command with more executable names: those a script
// installed before it (Cursor's installer puts its CLI on the PATH as
// "agent", a name too common to take alone).
func CommandWith(words []string, more map[string]string) (string, []string) {
	i := ExeIndex(words)
	if i < 0 {
		return "", nil
	}
	exe := words[i]
	rest := words[i+1:]
	base := exe[strings.LastIndex(exe, "/")+1:]
	// poetry run, uv run, pdm run, pipenv run: the command after them.
	if runners[base] && len(rest) > 1 && rest[0] == "run" {
		base, rest = rest[1][strings.LastIndex(rest[1], "/")+1:], rest[2:]
	}
	// python -m openhands.resolver.resolve_issue: OpenHands' resolver, the
	// agent run on an issue (its server, openhands.server, is a platform).
	if strings.HasPrefix(base, "python") && len(rest) > 1 && rest[0] == "-m" && strings.HasPrefix(rest[1], "openhands.resolver.") {
		return "openhands", rest[2:]
	}
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
		base, rest = Packages[pkg], rest[1:]
	}
	tool, ok := CLIs[base]
	if !ok {
		if tool, ok = more[base]; !ok {
			return "", nil
		}
	}
	if len(rest) > 0 && notRuns[rest[0]] {
		return "", nil
	}
	return tool, rest
}

// Installs returns the executables a command line installs under a
// name CLIs does not hold, with the agent each runs: Cursor's installer
// (curl https://cursor.com/install | bash) adds "agent".
func Installs(line string) map[string]string {
	if strings.Contains(line, "cursor.com/install") {
		return map[string]string{"agent": "cursor"}
	}
	return nil
}

// ExeIndex returns the index of the executable of a simple command, past
// variable assignments and wrappers (sudo, env, timeout 30…); -1 when none.
func ExeIndex(words []string) int {
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

// Split cuts a shell command line into simple commands, each a list of
// words with quotes removed. It is a reader for recognising commands, not
// a shell: expansions stay as written and a comment ends the line.
func Split(s string) [][]string {
	var cmds [][]string
	var words []string
	var cur strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	flushCmd := func() {
		flushWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
			words = nil
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			end := strings.IndexByte(s[i+1:], ch)
			if end < 0 {
				end = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case ch == '"':
			// In double quotes a backslash escapes ", \, $ and `
			// (-c "model=\"$M\"" is one word, model="$M").
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case ch == '\\' && i+1 < len(s):
			cur.WriteByte(s[i+1])
			inWord = true
			i++
		case ch == '#' && !inWord:
			flushCmd()
			return cmds
		case ch == ' ' || ch == '\t' || ch == '\r':
			flushWord()
		case strings.IndexByte(";&|()`\n", ch) >= 0:
			flushCmd()
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	flushCmd()
	return cmds
}

// Runs returns the agent the command line starts, "" when none.
func Runs(line string) string {
	for _, words := range Split(line) {
		if tool, _ := Command(words); tool != "" {
			return tool
		}
	}
	return ""
}

// bypassFlags are, per agent CLI, the flags that run every action without
// a person approving it (Codex's also drop its sandbox).
var bypassFlags = map[string][]string{
	"claude-code": {"--dangerously-skip-permissions"},
	"codex":       {"--dangerously-bypass-approvals-and-sandbox", "--yolo"},
	"gemini":      {"-y", "--yolo"},
	"qwen":        {"-y", "--yolo"},
	"aider":       {"--yes-always", "--yes"},
	"cursor":      {"-f", "--force"},
	"copilot":     {"--allow-all-tools", "--allow-all", "--yolo"},
	"opencode":    {"--auto"},
}

// BypassFlag recognises an agent CLI started with approval bypassed in
// one simple command (its words): the tool and the flag as written before
// any =value; "" and "" when the command starts none so.
func BypassFlag(words []string) (tool, flag string) {
	tool, args := Command(words)
	if tool == "" {
		return "", ""
	}
	for _, a := range args {
		if f, _, _ := strings.Cut(a, "="); Bypass(tool, f) {
			return tool, f
		}
	}
	return "", ""
}

// Bypass reports whether flag (as written, before any =value) makes tool
// run every action unapproved.
func Bypass(tool, flag string) bool {
	for _, f := range bypassFlags[tool] {
		if f == flag {
			return true
		}
	}
	return false
}

// nameParts are the words a launcher's name holds when it starts an
// agent's sandbox.
var nameParts = []string{"claude", "codex", "gemini", "aider", "goose", "opencode", "openhands", "copilot", "agent", "sandbox"}

// NamesAgent reports a file name that names an agent or its sandbox, in
// any part of it (claudebox, claude_up, codex-runner, agent-sandbox).
func NamesAgent(name string) bool {
	n := strings.ToLower(name)
	for _, p := range nameParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	return false
}

// AliasBypass is a shell alias that starts an agent with approval
// bypassed (alias cc='claude --dangerously-skip-permissions').
type AliasBypass struct {
	Name, Tool, Flag string
	Line             int
}

// aliasDef finds an alias definition and the text after its "=".
var aliasDef = regexp.MustCompile(`\balias\s+([A-Za-z0-9_.:-]+)=`)

// AliasBypasses lists, by line, the aliases text defines that run an agent
// with approval bypassed: as written in a shell start-up file, or echoed
// into one by a Dockerfile's RUN.
func AliasBypasses(text string) []AliasBypass {
	var out []AliasBypass
	for i, line := range strings.Split(text, "\n") {
		for _, m := range aliasDef.FindAllStringSubmatchIndex(line, -1) {
			body := strings.TrimPrefix(line[m[1]:], `\`)
			if body != "" && (body[0] == '\'' || body[0] == '"') {
				// alias cc='claude …' inside echo "…": the alias's own quotes
				q := body[0]
				body, _, _ = strings.Cut(body[1:], string(q))
				body = strings.TrimSuffix(body, `\`)
			}
			for _, words := range Split(body) {
				if tool, _ := Command(words); tool == "" {
					continue
				}
				if tool, flag := BypassFlag(words); tool != "" {
					out = append(out, AliasBypass{Name: line[m[2]:m[3]], Tool: tool, Flag: flag, Line: i + 1})
				}
				break
			}
		}
	}
	return out
}

// BypassAgent is the agents[] entry for an agent run with approval
// bypassed by flag, at loc: judged like a settings file that sets the mode.
// workload is the container it runs in ("" when not known).
func BypassAgent(tool, flag string, loc model.Loc, context, workload string) model.Agent {
	return model.Agent{
		Tool: tool, Scope: "project", Loc: loc, Context: context, Workload: workload,
		ApprovalRaw:  &model.Str{Value: flag, Loc: loc},
		ApprovalMode: &model.Str{Value: "bypass", Loc: loc},
		Speaks:       []string{"review"},
	}
}

// AliasAgents are the agents the aliases of text start with approval
// bypassed, at their lines of file.
func AliasAgents(file, text, workload string) []model.Agent {
	var out []model.Agent
	for _, a := range AliasBypasses(text) {
		out = append(out, BypassAgent(a.Tool, a.Flag, model.Loc{File: file, Line: a.Line}, "alias "+a.Name+" in "+file, workload))
	}
	return out
}
