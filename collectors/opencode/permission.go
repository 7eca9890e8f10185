package opencode

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// A bash rule as OpenCode evaluates it: a pattern over the command line
// ("*" for every command) and its action.
type rule struct {
	pattern string
	action  string // allow | ask | deny
	at      *jsonpos.Value
	all     bool // from a rule for every permission ("*" or a bare string), not bash's own
	own     bool // from the agent's own permission or tools, not the global ones
}

var actions = map[string]bool{"allow": true, "ask": true, "deny": true}

// DefaultMode is the ApprovalRaw of an agent whose config sets no rule for
// every command: OpenCode's default for bash is "allow".
const DefaultMode = "(default)"

// permissions reads the bash permission of the agent OpenCode starts by
// default (default_agent, else build): the global permission, then the
// agent's own, then legacy tools switches, in the order OpenCode merges
// them. The rules that still decide something once later ones have
// overridden earlier ones become the agent's allow, ask and deny lists
// (bash for every command, bash(pattern) for one); when nothing is said of
// every command, the default "allow" stands and the approval mode is
// bypass.
func (r *reader) permissions(root *jsonpos.Value, a *model.Agent) {
	name := defaultAgent(root)
	rules := r.agentRules(root, name)
	r.edits(root, name, a)
	r.reads(root, name, a)
	rules = effective(rules)
	if len(rules) == 0 || rules[0].pattern != "*" {
		// Nothing covers every command: OpenCode's default allow does. At
		// the bash rules when there are some, else at the file.
		l := a.Loc
		if len(rules) > 0 {
			l = r.loc(rules[0].at)
		}
		a.ApprovalRaw = &model.Str{Value: DefaultMode, Loc: l}
		a.ApprovalMode = &model.Str{Value: "bypass", Loc: l}
	} else if rules[0].action == "allow" && rules[0].all && len(rules) == 1 {
		// Every permission allowed, and nothing held back.
		l := r.loc(rules[0].at)
		a.ApprovalRaw = &model.Str{Value: `permission "allow"`, Loc: l}
		a.ApprovalMode = &model.Str{Value: "bypass", Loc: l}
		return
	}
	addRules(r, rules, a, false)
}

// addRules turns the rules that still decide something into the agent's
// allow, ask and deny lists (onlyOwn: only those of the agent's own
// permission, for an agent other than the default, whose global rules the
// default agent already carries).
func addRules(r *reader, rules []rule, a *model.Agent, onlyOwn bool) {
	// An ask or deny rule before every allow rule decides nothing an allow
	// rule grants: the later allow wins where both match. Kept, it would
	// hold back what the allow grants, as a Claude Code ask rule does.
	first := len(rules)
	for i, x := range rules {
		if x.action == "allow" {
			first = i
			break
		}
	}
	for i, x := range rules {
		if x.action != "allow" && i < first && first < len(rules) || onlyOwn && !x.own {
			continue
		}
		v := "bash"
		if x.pattern != "*" {
			v = "bash(" + x.pattern + ")"
		}
		s := model.Str{Value: v, Loc: r.loc(x.at)}
		switch x.action {
		case "allow":
			a.Allow = append(a.Allow, s)
		case "ask":
			a.Ask = append(a.Ask, s)
		case "deny":
			a.Deny = append(a.Deny, s)
		}
	}
}

// defaultAgent is the agent OpenCode starts: default_agent, else build.
func defaultAgent(root *jsonpos.Value) string {
	if d := root.Get("default_agent"); d != nil && d.Kind == jsonpos.String && d.Str != "" {
		return d.Str
	}
	return "build"
}

// agentRules are the bash rules of agent name in OpenCode's merge order:
// the global permission and tools, then the agent's own (marked own).
func (r *reader) agentRules(root *jsonpos.Value, name string) []rule {
	var rules []rule
	rules = append(rules, r.toolRules(root.Get("permission"), "bash", "permission")...)
	rules = append(rules, r.tools(root.Get("tools"))...)
	if ag := root.Path("agent", name); ag != nil && ag.Kind == jsonpos.Object {
		own := append(r.toolRules(ag.Get("permission"), "bash", "agent."+name+".permission"), r.tools(ag.Get("tools"))...)
		for i := range own {
			own[i].own = true
		}
		rules = append(rules, own...)
	}
	return rules
}

// subagents reads the other agents the config defines with a permission or
// tools of their own (a subagent the default agent starts through its task
// tool, another primary agent a person switches to): each becomes an agents[]
// entry, named as a profile, carrying the rules of its own that still
// decide something.
func (r *reader) subagents(root *jsonpos.Value, main model.Agent) []model.Agent {
	agents := root.Get("agent")
	if agents == nil || agents.Kind != jsonpos.Object {
		return nil
	}
	name := defaultAgent(root)
	var out []model.Agent
	for _, m := range agents.Members {
		if m.Key == name || m.Value.Kind != jsonpos.Object || m.Value.Get("permission") == nil && m.Value.Get("tools") == nil {
			continue
		}
		profile := m.Key
		if strings.TrimSpace(profile) == "" {
			profile = `""` // a blank name still carries rules: show it, quoted
		}
		a := model.Agent{Tool: "opencode", Scope: main.Scope, Profile: profile, Loc: model.Loc{File: r.file, Line: m.Line}, Speaks: []string{"review"}}
		addRules(r, effective(r.agentRules(root, m.Key)), &a, true)
		if len(a.Allow)+len(a.Ask)+len(a.Deny) > 0 {
			out = append(out, a)
		}
	}
	return out
}

// edits adds an allow rule "edit" when file edits go through unasked: the
// last rule for every file, or OpenCode's default when none is written, is
// allow. Edits unasked make build and test commands run code the agent
// wrote.
func (r *reader) edits(root *jsonpos.Value, name string, a *model.Agent) {
	var last *rule
	for _, perm := range []*jsonpos.Value{root.Get("permission"), root.Path("agent", name, "permission")} {
		for _, x := range r.catchAll(perm, "edit") {
			last = &x
		}
	}
	for _, t := range []*jsonpos.Value{root.Get("tools"), root.Path("agent", name, "tools")} {
		if t == nil || t.Kind != jsonpos.Object {
			continue
		}
		for _, m := range t.Members {
			if (m.Key == "edit" || m.Key == "write") && m.Value.Kind == jsonpos.Bool && !m.Value.Bool {
				last = &rule{pattern: "*", action: "deny", at: m.Value}
			}
		}
	}
	switch {
	case last == nil:
		a.Allow = append(a.Allow, model.Str{Value: "edit", Loc: a.Loc})
	case last.action == "allow":
		a.Allow = append(a.Allow, model.Str{Value: "edit", Loc: r.loc(last.at)})
	}
}

// reads adds an allow rule "external_directory" when tools may touch paths
// outside the project unasked (~/.aws, ~/.ssh: OpenCode's default asks),
// and "read(pattern)" for a user rule that, last to match, lets the agent
// read .env files, which OpenCode denies by default.
func (r *reader) reads(root *jsonpos.Value, name string, a *model.Agent) {
	perms := []*jsonpos.Value{root.Get("permission"), root.Path("agent", name, "permission")}
	var ext *rule
	for _, perm := range perms {
		for _, x := range r.catchAll(perm, "external_directory") {
			ext = &x
		}
	}
	if ext != nil && ext.action == "allow" {
		a.Allow = append(a.Allow, model.Str{Value: "external_directory", Loc: r.loc(ext.at)})
	}
	var rules []rule
	for _, perm := range perms {
		rules = append(rules, r.toolRules(perm, "read", "")...)
	}
	for _, p := range []string{".env", "app/.env", ".env.local"} {
		// OpenCode's defaults come first: "*" allow, "*.env" and
		// "*.env.*" deny; only a user rule can let .env be read.
		var last *rule
		for i := range rules {
			if wildcard(rules[i].pattern, p) {
				last = &rules[i]
			}
		}
		if last != nil && last.action == "allow" {
			a.Allow = append(a.Allow, model.Str{Value: "read(" + last.pattern + ")", Loc: r.loc(last.at)})
			return
		}
	}
}

// toolRules lists, in order, a permission value's rules for tool: an
// action for every permission (a bare action, or "*"), and the tool's own
// action or patterns; permission names match as patterns too
// ("external_*"). With key (where the value sits) a value of the wrong
// type is reported; without, it is skipped.
func (r *reader) toolRules(v *jsonpos.Value, tool, key string) []rule {
	report := func(at *jsonpos.Value, k, want string) {
		if key != "" {
			r.wrongType(at, k, want)
		}
	}
	if v == nil || v.Kind == jsonpos.Null {
		return nil
	}
	switch v.Kind {
	case jsonpos.String:
		if actions[v.Str] {
			return []rule{{pattern: "*", action: v.Str, at: v, all: true}}
		}
		report(v, key, `"allow", "ask" or "deny"`)
		return nil
	case jsonpos.Object:
	default:
		report(v, key, "an object")
		return nil
	}
	var out []rule
	for _, m := range v.Members {
		switch {
		case !wildcard(m.Key, tool):
		case m.Key == "*":
			if m.Value.Kind == jsonpos.String && actions[m.Value.Str] {
				out = append(out, rule{pattern: "*", action: m.Value.Str, at: m.Value, all: true})
			}
		default:
			out = append(out, patterns(m.Value, key+"."+m.Key, report)...)
		}
	}
	return out
}

// patterns reads one tool's permission: an action, or an object of
// patterns to actions.
func patterns(v *jsonpos.Value, key string, report func(*jsonpos.Value, string, string)) []rule {
	switch v.Kind {
	case jsonpos.String:
		if actions[v.Str] {
			return []rule{{pattern: "*", action: v.Str, at: v}}
		}
		report(v, key, `"allow", "ask" or "deny"`)
	case jsonpos.Object:
		var out []rule
		for _, m := range v.Members {
			if m.Value.Kind == jsonpos.String && actions[m.Value.Str] {
				out = append(out, rule{pattern: strings.TrimSpace(m.Key), action: m.Value.Str, at: m.Value})
			} else {
				report(m.Value, key+"."+m.Key, `"allow", "ask" or "deny"`)
			}
		}
		return out
	case jsonpos.Null:
	default:
		report(v, key, "an object")
	}
	return nil
}

// catchAll lists, in order, the rules of a permission value that cover
// every input of tool.
func (r *reader) catchAll(v *jsonpos.Value, tool string) []rule {
	var out []rule
	for _, x := range r.toolRules(v, tool, "") {
		if x.pattern == "*" {
			out = append(out, x)
		}
	}
	return out
}

// tools reads the legacy tools switches: "bash": false removes the tool,
// which OpenCode turns into a deny for every command; true leaves the
// tool, and its permission, as they are.
func (r *reader) tools(v *jsonpos.Value) []rule {
	if v == nil || v.Kind != jsonpos.Object {
		return nil
	}
	var out []rule
	for _, m := range v.Members {
		// true keeps the tool, whose permission decides; false removes it.
		if (m.Key == "bash" || m.Key == "*") && m.Value.Kind == jsonpos.Bool && !m.Value.Bool {
			out = append(out, rule{pattern: "*", action: "deny", at: m.Value, all: m.Key == "*"})
		}
	}
	return out
}

// effective keeps the rules a later one does not override: the last match
// wins, so a rule whose every command a later pattern also matches (a
// later "*", or "git *" after "git push *") decides nothing.
func effective(rules []rule) []rule {
	var out []rule
	for i, x := range rules {
		overridden := false
		for _, y := range rules[i+1:] {
			if wildcard(y.pattern, x.pattern) {
				overridden = true
				break
			}
		}
		if !overridden {
			out = append(out, x)
		}
	}
	return out
}

// wildcard matches s against an OpenCode pattern: * is any run of
// characters, ? one; a pattern ending in " *" also matches the bare
// command before it.
func wildcard(pattern, s string) bool {
	if strings.HasSuffix(pattern, " *") && strings.Count(pattern, "*") == 1 && s == strings.TrimSuffix(pattern, " *") {
		return true
	}
	return match(pattern, s)
}

func match(p, s string) bool {
	// Iterative glob with backtracking over the last star.
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]) && p[pi] != '*':
			pi++
			si++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
