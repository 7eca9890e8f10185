package workflows

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// runScript reads a run: script for agent invocations, pushes, merges and
// literal secrets, line by line.
func (c *collector) runScript(run *yaml.Node, j *model.Job) {
	lines := strings.Split(run.Value, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		start := i
		// Backslash-newline continues a command on the next line (built
		// up in one buffer: a script of continued lines is not copied once
		// per line).
		b.Reset()
		cur := lines[i]
		for strings.HasSuffix(strings.TrimRight(cur, " \t"), `\`) && i+1 < len(lines) {
			b.WriteString(strings.TrimSuffix(strings.TrimRight(cur, " \t"), `\`))
			b.WriteString(" ")
			i++
			cur = strings.TrimSpace(lines[i])
		}
		b.WriteString(cur)
		logical := b.String()
		line := lineOf(run, start)
		_, found := secrets.Hide(logical)
		for _, f := range found {
			c.credential(f.SecretRef, "workflow "+c.workflow+" job "+j.ID+" run step", line)
		}
		for _, cmd := range splitCommands(logical) {
			c.command(cmd, line, j)
		}
	}
}

// command classifies one simple command of a run script.
func (c *collector) command(words []string, line int, j *model.Job) {
	if len(words) == 0 {
		return
	}
	text := secrets.Redact(strings.Join(words, " "))
	loc := c.loc(line)
	if tool, args := agentCommand(words); tool != "" {
		st := model.AgentStep{Tool: tool, Run: text, Loc: loc, Inputs: map[string]model.Str{}}
		if len(args) > 0 {
			hidden, _ := secrets.HideArgs(args)
			st.Args = &model.Str{Value: strings.Join(hidden, " "), Loc: loc}
		}
		f := cliFlags(tool, args)
		if f.mode != "" {
			st.PermissionMode = &model.Str{Value: f.mode, Loc: loc}
		}
		if f.sandbox != "" {
			st.Sandbox = &model.Str{Value: f.sandbox, Loc: loc}
		}
		j.AgentSteps = append(j.AgentSteps, st)
	}
	i := exeIndex(words)
	if i < 0 {
		return
	}
	switch words[i] {
	case "git":
		if gitSubcommand(words[i+1:]) == "push" {
			j.Pushes = append(j.Pushes, model.Str{Value: text, Loc: loc})
		}
	case "gh":
		if ghMerges(words[i+1:]) {
			j.AutoMerge = append(j.AutoMerge, model.Str{Value: text, Loc: loc})
		}
	}
}

// gitSubcommand skips git's global options (-C dir, -c k=v, --no-pager…).
func gitSubcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// ghMerges reports gh pr merge (with or without --auto), gh pr review
// --approve, and gh api calls to a pull request's merge endpoint.
func ghMerges(args []string) bool {
	if len(args) >= 2 && args[0] == "pr" {
		switch args[1] {
		case "merge":
			return true
		case "review":
			for _, a := range args[2:] {
				if a == "--approve" || a == "-a" {
					return true
				}
			}
		}
	}
	if len(args) >= 1 && args[0] == "api" {
		for _, a := range args[1:] {
			if strings.Contains(a, "/merge") || strings.Contains(a, "enablePullRequestAutoMerge") || strings.Contains(a, "mergePullRequest") {
				return true
			}
		}
	}
	return false
}

// flags is what an agent's command-line options say about its leash.
type flags struct{ mode, sandbox string }

// cliFlags reads permission and sandbox options of an agent CLI (also used
// for an action's claude_args / codex args inputs).
func cliFlags(tool string, args []string) flags {
	var f flags
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch tool + " " + name {
		case "claude-code --permission-mode":
			f.mode = next()
		case "claude-code --dangerously-skip-permissions":
			f.mode = "bypassPermissions"
		case "codex --dangerously-bypass-approvals-and-sandbox", "codex --yolo":
			f.mode, f.sandbox = "never", "danger-full-access"
		case "codex --full-auto":
			if f.sandbox == "" {
				f.sandbox = "workspace-write"
			}
		case "codex -s", "codex --sandbox":
			f.sandbox = next()
		case "codex -a", "codex --ask-for-approval":
			f.mode = next()
		case "codex -c", "codex --config":
			k, v, _ := strings.Cut(next(), "=")
			v = strings.Trim(v, `"'`)
			switch strings.TrimSpace(k) {
			case "sandbox_mode":
				f.sandbox = v
			case "approval_policy":
				f.mode = v
			}
		case "gemini -y", "gemini --yolo", "qwen -y", "qwen --yolo":
			f.mode = "yolo"
		case "gemini --approval-mode", "qwen --approval-mode":
			f.mode = next()
		case "gemini -s", "gemini --sandbox", "qwen -s", "qwen --sandbox":
			f.sandbox = "true"
		case "aider --yes-always", "aider --yes":
			f.mode = "yes-always"
		case "cursor -f", "cursor --force":
			f.mode = "force"
		case "copilot --allow-all-tools", "copilot --allow-all", "copilot --yolo":
			f.mode = strings.TrimPrefix(name, "--")
		}
	}
	return f
}

// shellWords splits an argument string as a shell would (quotes removed).
func shellWords(s string) []string {
	var out []string
	for _, cmd := range splitCommands(s) {
		out = append(out, cmd...)
	}
	return out
}

// splitCommands splits one line of shell into simple commands (on ; && ||
// | & and parentheses) of words with quotes removed; a # starting a word
// begins a comment. It is a reader for facts, not a shell: heredocs and
// expansions are taken as plain words.
func splitCommands(s string) [][]string {
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
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(s[i+1:], ch)
			if end < 0 {
				end = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += end + 1
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
