package workflows

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/claude"
	"github.com/sandbox-audit/sandbox-audit/collectors/gemini"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// pendingAgent is an agent step whose configuration becomes an agents[]
// entry once the file is read (the inline settings need the context).
type pendingAgent struct {
	job, step int // indices into the workflow's jobs and the job's agent steps
	with      *yaml.Node
	args      *yaml.Node   // the node the CLI arguments come from (claude_args, run:)
	envs      []*yaml.Node // step, job and workflow env, in that order
	context   string
}

// stepAgent models what an agent step configures — the action's inputs and
// the CLI's flags, with the defaults the action adds — as an agents[] entry
// located at the step, so the agent rules (push, merge, approval bypass,
// sandbox, secret reads) judge it like a settings file.
func (c *collector) stepAgent(ctx context.Context, st *model.AgentStep, p pendingAgent) model.Agent {
	a := model.Agent{}
	name := actionName(st.Uses)
	switch st.Tool {
	case "claude-code":
		// The action's settings input is a Claude Code settings file;
		// claude_args wins over it (the action's docs).
		a = c.inlineSettings(ctx, get(p.with, "settings"), "claude")
		for _, in := range []string{"allowed_tools", "disallowed_tools"} {
			if v := get(p.with, in); v != nil && !claudeActionV1(st.Uses) {
				rules := splitTools(scalar(v), c.loc(v.Line))
				if in == "allowed_tools" {
					a.Allow = append(a.Allow, rules...)
				} else {
					a.Deny = append(a.Deny, rules...)
				}
			}
		}
		if v := get(p.with, "mcp_config"); v != nil {
			c.inlineMCP(ctx, v, scalar(v))
		}
	case "gemini", "qwen":
		settings := get(p.with, "settings")
		if settings == nil {
			settings = get(p.with, "settings_json") // a wrapper action's spelling
		}
		a = c.inlineSettings(ctx, settings, "gemini")
		if st.Uses != "" && strings.HasPrefix(name, "google-github-actions/run-gemini-cli") {
			// The action runs `gemini --yolo --prompt …` on every run; no
			// input changes that (action.yml).
			raw := "--yolo (run-gemini-cli passes it on every run)"
			a.ApprovalRaw = &model.Str{Value: raw, Loc: st.Loc}
			a.ApprovalMode = &model.Str{Value: "bypass", Loc: st.Loc}
		}
	case "codex":
		c.codexInputs(st, p.with, &a)
	}
	a.Tool, a.Scope, a.Context, a.Loc = st.Tool, "workflow", p.context, st.Loc
	a.Profile, a.Project, a.Group = "", "", ""
	switch {
	case st.Uses == "" && c.cliWords[st.Line] != nil:
		c.applyFlags(ctx, st.Tool, c.cliWords[st.Line], p.args, st.Loc, &a)
	case st.Args != nil:
		c.applyFlags(ctx, st.Tool, argWords(st.Args.Value), p.args, st.Loc, &a)
	}
	c.sandboxEnv(st.Tool, p.envs, &a)
	return a
}

// inlineSettings parses an action's settings input when it holds JSON (not
// a path) with the tool's own settings reader, at the input's lines. Its MCP
// servers and literal secrets join the document.
func (c *collector) inlineSettings(ctx context.Context, v *yaml.Node, format string) model.Agent {
	data, ok := inlineJSON(v)
	if !ok {
		return model.Agent{}
	}
	var tmp model.Document
	switch format {
	case "claude":
		// A value of the wrong type is still read; the settings reader's
		// complaint about it is not the workflow's error.
		_ = claude.New().Collect(ctx, c.file, data, &tmp)
	case "gemini":
		_ = gemini.New().Collect(ctx, c.file, data, &tmp)
	}
	c.doc.MCPServers = append(c.doc.MCPServers, tmp.MCPServers...)
	c.doc.Credentials = append(c.doc.Credentials, tmp.Credentials...)
	if len(tmp.Agents) == 0 {
		return model.Agent{}
	}
	return tmp.Agents[0]
}

// inlineMCP reads an --mcp-config (or mcp_config input) that is JSON rather
// than a file path.
func (c *collector) inlineMCP(ctx context.Context, v *yaml.Node, text string) {
	if v == nil {
		return
	}
	data, ok := jsonAt(v, text)
	if !ok {
		return
	}
	var tmp model.Document
	if err := (mcp.Collector{}).Collect(ctx, c.file, data, &tmp); err != nil {
		return
	}
	for i := range tmp.MCPServers {
		tmp.MCPServers[i].Config = "workflow"
	}
	c.doc.MCPServers = append(c.doc.MCPServers, tmp.MCPServers...)
	c.doc.Credentials = append(c.doc.Credentials, tmp.Credentials...)
}

// codexInputs reads openai/codex-action's sandbox and permission-profile.
// Unset, the action falls back to workspace-write (action.yml), which is no
// fact of the file and is left unset.
func (c *collector) codexInputs(st *model.AgentStep, with *yaml.Node, a *model.Agent) {
	if v := get(with, "sandbox"); v != nil && scalar(v) != "" {
		c.codexSandbox(scalar(v), c.loc(v.Line), a)
	}
	if v := get(with, "permission-profile"); v != nil && scalar(v) != "" {
		mode := scalar(v)
		switch mode {
		case ":read-only":
			mode = "read-only"
		case ":workspace":
			mode = "workspace-write"
		}
		c.codexSandbox(mode, c.loc(v.Line), a)
	}
}

func (c *collector) codexSandbox(mode string, loc model.Loc, a *model.Agent) {
	a.SandboxMode = &model.Str{Value: mode, Loc: loc}
	a.SandboxEnabled = &model.Bool{Value: mode != "danger-full-access", Loc: loc}
}

// sandboxEnv reads GEMINI_SANDBOX from the step's, job's and workflow's env:
// it turns Gemini CLI's sandbox on (true or a runtime name) like --sandbox.
func (c *collector) sandboxEnv(tool string, envs []*yaml.Node, a *model.Agent) {
	if (tool != "gemini" && tool != "qwen") || a.SandboxEnabled != nil {
		return
	}
	for _, env := range envs {
		k, v := getKV(env, "GEMINI_SANDBOX")
		if v == nil {
			continue
		}
		val := strings.ToLower(strings.TrimSpace(scalar(v)))
		a.SandboxEnabled = &model.Bool{Value: val != "" && val != "false" && val != "0", Loc: c.loc(k.Line)}
		return
	}
}

// applyFlags reads the agent CLI's options that widen or narrow what it may
// do without a person, at the line each is written on.
func (c *collector) applyFlags(ctx context.Context, tool string, words []string, node *yaml.Node, fallback model.Loc, a *model.Agent) {
	at := func(flag string) model.Loc { return argLoc(c, node, flag, fallback) }
	setMode := func(raw, mode string, loc model.Loc) {
		a.ApprovalRaw = &model.Str{Value: raw, Loc: loc}
		a.ApprovalMode = &model.Str{Value: mode, Loc: loc}
	}
	for i := 0; i < len(words); i++ {
		flag, value, hasValue := strings.Cut(words[i], "=")
		if !strings.HasPrefix(flag, "-") {
			continue
		}
		// next takes the flag's value; list takes every word up to the next flag.
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(words) {
				i++
				return words[i]
			}
			return ""
		}
		list := func() []string {
			var out []string
			if hasValue {
				out = append(out, value)
			}
			for i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
				i++
				out = append(out, words[i])
			}
			return out
		}
		loc := at(flag)
		switch tool + " " + flag {
		case "claude-code --allowedTools", "claude-code --allowed-tools",
			"gemini --allowed-tools", "qwen --allowed-tools", "copilot --allow-tool":
			for _, w := range list() {
				a.Allow = append(a.Allow, splitTools(w, loc)...)
			}
		case "claude-code --disallowedTools", "claude-code --disallowed-tools", "copilot --deny-tool":
			for _, w := range list() {
				a.Deny = append(a.Deny, splitTools(w, loc)...)
			}
		case "claude-code --tools":
			l := loc
			a.ToolList = &l
			for _, w := range list() {
				a.Tools = append(a.Tools, splitTools(w, loc)...)
			}
		case "claude-code --permission-mode":
			raw := next()
			if mode, ok := claude.ApprovalMode(raw); ok {
				setMode(raw, mode, loc)
			}
		case "claude-code --settings":
			if v := next(); strings.HasPrefix(strings.TrimSpace(v), "{") {
				c.mergeInline(ctx, v, loc, a)
			}
		case "claude-code --mcp-config":
			for _, v := range list() {
				c.inlineMCP(ctx, &yaml.Node{Kind: yaml.ScalarNode, Line: loc.Line}, v)
			}
		case "codex --dangerously-bypass-approvals-and-sandbox", "codex --yolo":
			setMode(flag, "bypass", loc)
			c.codexSandbox("danger-full-access", loc, a)
		case "codex --full-auto":
			if a.SandboxMode == nil {
				c.codexSandbox("workspace-write", loc, a)
			}
		case "codex -s", "codex --sandbox":
			c.codexSandbox(next(), loc, a)
		case "codex -a", "codex --ask-for-approval":
			// codex exec never stops to ask: the policy is recorded, the
			// sandbox decides.
			a.ApprovalRaw = &model.Str{Value: next(), Loc: loc}
		case "codex -c", "codex --config":
			k, v, _ := strings.Cut(next(), "=")
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			switch strings.TrimSpace(k) {
			case "sandbox_mode":
				c.codexSandbox(v, loc, a)
			case "sandbox_workspace_write.network_access":
				a.NetworkAccess = &model.Bool{Value: v == "true", Loc: loc}
			}
		case "gemini --approval-mode", "qwen --approval-mode":
			raw := next()
			if mode, ok := gemini.ApprovalMode(raw); ok {
				setMode("--approval-mode "+raw, mode, loc)
			}
		case "gemini -s", "gemini --sandbox", "qwen -s", "qwen --sandbox":
			on := !hasValue || value != "false"
			a.SandboxEnabled = &model.Bool{Value: on, Loc: loc}
		default:
			if tool != "codex" && agentcli.Bypass(tool, flag) {
				setMode(flag, "bypass", loc)
			}
		}
	}
}

// argWords splits an args input: a JSON array of strings (codex-action's
// codex-args may be one) or a shell-like string.
func argWords(text string) []string {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "[") {
		var words []string
		if json.Unmarshal([]byte(t), &words) == nil {
			return words
		}
	}
	return shellWords(text)
}

// mergeInline applies a --settings JSON over the step's settings.
func (c *collector) mergeInline(ctx context.Context, text string, loc model.Loc, a *model.Agent) {
	b := c.inlineSettings(ctx, &yaml.Node{Kind: yaml.ScalarNode, Value: text, Line: loc.Line}, "claude")
	a.Allow = append(a.Allow, b.Allow...)
	a.Deny = append(a.Deny, b.Deny...)
	a.Ask = append(a.Ask, b.Ask...)
	if b.ApprovalMode != nil {
		a.ApprovalMode, a.ApprovalRaw = b.ApprovalMode, b.ApprovalRaw
	}
	if b.SandboxEnabled != nil {
		a.SandboxEnabled = b.SandboxEnabled
	}
	if b.BypassDisabled != nil {
		a.BypassDisabled = b.BypassDisabled
	}
	a.AllowedDomains = append(a.AllowedDomains, b.AllowedDomains...)
	a.UnknownKeys = append(a.UnknownKeys, b.UnknownKeys...)
}

// splitTools splits a tool list ("Bash(git diff:*),Read Edit") on commas and
// spaces outside parentheses: a rule's spec keeps its spaces.
func splitTools(s string, loc model.Loc) []model.Str {
	var out []model.Str
	depth, start := 0, 0
	flush := func(end int) {
		// A word that cannot be a tool name (a prompt after the list) is
		// not a rule.
		if t := strings.TrimSpace(s[start:end]); toolShaped(t) {
			out = append(out, model.Str{Value: t, Loc: loc})
		}
		start = end + 1
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',', ' ', '\t', '\n':
			if depth == 0 {
				flush(i)
			}
		}
	}
	flush(len(s))
	return out
}

// toolShaped reports a tool name or rule: Read, Bash(git diff:*),
// mcp__github__get_issue, shell(git).
func toolShaped(t string) bool {
	if t == "" || !('A' <= t[0] && t[0] <= 'Z' || 'a' <= t[0] && t[0] <= 'z') {
		return false
	}
	name, _, _ := strings.Cut(t, "(")
	for _, r := range name {
		if !(r == '_' || r == '-' || r == '*' || r == '.' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// argLoc is the line of a multi-line argument value that first names flag;
// the value's own line otherwise.
func argLoc(c *collector, node *yaml.Node, flag string, fallback model.Loc) model.Loc {
	if node == nil || node.Kind != yaml.ScalarNode {
		return fallback
	}
	for i, line := range strings.Split(node.Value, "\n") {
		if strings.Contains(line, flag) {
			return c.loc(lineOf(node, i))
		}
	}
	return c.loc(node.Line)
}

// inlineJSON is a settings input's text when it is a JSON object, padded
// with newlines so the parser's lines are the workflow's.
func inlineJSON(v *yaml.Node) ([]byte, bool) {
	if v == nil || v.Kind != yaml.ScalarNode {
		return nil, false
	}
	return jsonAt(v, v.Value)
}

// jsonAt prepares text written at node v for a JSON reader: ${{ }}
// expressions outside strings become null (GitHub replaces them before the
// tool sees the text), and the text moves down to v's lines.
func jsonAt(v *yaml.Node, text string) ([]byte, bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		return nil, false
	}
	first := v.Line - 1
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		first = v.Line
	}
	if first < 0 {
		first = 0
	}
	return []byte(strings.Repeat("\n", first) + blankExpressions(text)), true
}

// blankExpressions replaces ${{ … }} outside JSON strings with null.
func blankExpressions(s string) string {
	var b strings.Builder
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inString:
			b.WriteByte(ch)
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
			b.WriteByte(ch)
		case strings.HasPrefix(s[i:], "${{"):
			end := strings.Index(s[i:], "}}")
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString("null")
			// Keep the expression's newlines so the lines after it stay put.
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:i+end], "\n")))
			i += end + 1
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// claudeActionV1 reports anthropics/claude-code-action at v1 or later,
// which dropped the allowed_tools and disallowed_tools inputs (its
// migration guide: they moved to claude_args --allowedTools): a workflow
// that still sets them grants nothing by them. A branch or a commit ref
// says no version and is read as before.
func claudeActionV1(uses string) bool {
	if actionName(uses) != "anthropics/claude-code-action" {
		return false
	}
	ref := actionRef(uses)
	if !strings.HasPrefix(ref, "v") {
		return false
	}
	major, _, _ := strings.Cut(ref[1:], ".")
	n, err := strconv.Atoi(major)
	return err == nil && n >= 1
}
