package claude

import (
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// approvalModes normalizes permissions.defaultMode. dontAsk never prompts
// (it denies what is not allowed), so like acceptEdits and auto no person
// sees the actions it lets through.
var approvalModes = map[string]string{
	"bypassPermissions": "bypass",
	"acceptEdits":       "auto",
	"auto":              "auto",
	"dontAsk":           "auto",
	"plan":              "plan",
	"default":           "default",
}

func (r *reader) permissions(v *jsonpos.Value, a *model.Agent, doc *model.Document) {
	perms := r.object(v, "permissions")
	if perms == nil {
		return
	}
	if m := r.str(perms, "defaultMode"); m != nil {
		a.ApprovalRaw = m
		if mode, ok := approvalModes[m.Value]; ok {
			a.ApprovalMode = &model.Str{Value: mode, Loc: m.Loc}
		}
	}
	if d := r.str(perms, "disableBypassPermissionsMode"); d != nil {
		a.BypassDisabled = &model.Bool{Value: d.Value == "disable", Loc: d.Loc}
	}
	a.Allow = r.redactAll(r.strs(perms, "allow"), "permissions.allow", doc)
	a.Deny = r.redactAll(r.strs(perms, "deny"), "permissions.deny", doc)
	a.Ask = r.redactAll(r.strs(perms, "ask"), "permissions.ask", doc)
}

// sandbox reads the Bash sandbox. NetworkAccess stays nil: with the sandbox
// on, network is limited to allowedDomains, and no key turns it fully on.
func (r *reader) sandbox(v *jsonpos.Value, a *model.Agent, doc *model.Document) {
	sb := r.object(v, "sandbox")
	if sb == nil {
		return
	}
	a.SandboxEnabled = r.boolean(sb, "enabled")
	a.AllowUnsandboxed = r.boolean(sb, "allowUnsandboxedCommands")
	a.ExcludedCommands = r.redactAll(r.strs(sb, "excludedCommands"), "sandbox.excludedCommands", doc)
	if net := r.object(sb.Get("network"), "sandbox.network"); net != nil {
		a.AllowedDomains = r.strs(net, "allowedDomains")
		a.UnixSockets = r.strs(net, "allowUnixSockets")
		a.AllowAllSockets = r.boolean(net, "allowAllUnixSockets")
	}
	r.object(sb.Get("filesystem"), "sandbox.filesystem")
}

// env reads the variables Claude Code sets for itself and every command it
// runs: a literal token here is readable by the agent.
func (r *reader) env(v *jsonpos.Value, a *model.Agent, doc *model.Document) {
	env := r.object(v, "env")
	if env == nil {
		return
	}
	for _, m := range env.Members {
		ev := model.EnvVar{Name: m.Key, SensitiveName: secrets.SensitiveEnv(m.Key, m.Value.Str, m.Value.Kind == jsonpos.String), Loc: model.Loc{File: r.file, Line: m.Line}}
		if m.Value.Kind == jsonpos.String {
			ev.Secret = secrets.DetectNamed(m.Key, m.Value.Str)
		}
		if ev.Secret != nil {
			doc.Credentials = append(doc.Credentials, model.Credential{
				SecretRef: *ev.Secret, Where: "env", ReadableByAgent: true,
				Context: "claude-code settings env " + m.Key, Loc: ev.Loc,
			})
		}
		a.Env = append(a.Env, ev)
	}
}

// redacted keeps a command (apiKeyHelper, a permission rule, an excluded
// command) without the secrets it may embed, and counts each as a
// credential of the settings file: the agent reads its own settings, and
// a token in Bash(curl -H "Authorization: Bearer …":*) is as exposed as
// one in env.
func (r *reader) redacted(s *model.Str, key string, doc *model.Document) *model.Str {
	out, found := secrets.Hide(s.Value)
	for _, f := range found {
		doc.Credentials = append(doc.Credentials, model.Credential{
			SecretRef: f.SecretRef, Where: "settings", ReadableByAgent: true,
			Context: "claude-code settings " + key, Loc: s.Loc,
		})
	}
	return &model.Str{Value: out, Loc: s.Loc}
}

func (r *reader) redactAll(list []model.Str, key string, doc *model.Document) []model.Str {
	for i := range list {
		list[i] = *r.redacted(&list[i], key, doc)
	}
	return list
}

// unknownKeys lists, by dotted path, keys of the audited objects that are
// not in knownKeys: inside the objects the audit reads (sandbox,
// permissions, …) every one, at the top level those that look like a
// setting gone wrong. A project's own top-level key ("search", a team's
// tool settings) is not Claude Code's and changes nothing the audit
// judges; "sandbx", "Sandbox" or "denyList" is a protection believed on.
func (r *reader) unknownKeys(root *jsonpos.Value) []model.Str {
	var out []model.Str
	levels := make([]string, 0, len(knownKeys))
	for l := range knownKeys {
		levels = append(levels, l)
	}
	sort.Strings(levels)
	for _, level := range levels {
		obj := root
		if level != "" {
			obj = root.Path(strings.Split(level, ".")...)
		}
		if obj == nil || obj.Kind != jsonpos.Object {
			continue
		}
		for _, m := range obj.Members {
			if knownKeys[level][m.Key] || (level == "" && !mistaken(m.Key)) {
				continue
			}
			name := m.Key
			if level != "" {
				name = level + "." + m.Key
			}
			out = append(out, model.Str{Value: name, Loc: model.Loc{File: r.file, Line: m.Line}})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// ApprovalMode normalizes a Claude Code permission mode as written in
// permissions.defaultMode or --permission-mode (bypass, auto, plan,
// default); ok is false for a mode Claude Code does not know.
func ApprovalMode(raw string) (mode string, ok bool) {
	mode, ok = approvalModes[raw]
	return mode, ok
}

// securityWords are parts of a key that mean a protection.
var securityWords = []string{"sandbox", "permission", "allow", "deny", "network", "domain", "approv", "bypass", "trust", "secret", "credential", "mcp", "hook"}

// mistaken reports a top-level key that is a known one misspelt (case
// aside, or at most two edits away) or names a protection.
func mistaken(key string) bool {
	k := strings.ToLower(key)
	for _, w := range securityWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	for known := range knownKeys[""] {
		if d := editDistance(k, strings.ToLower(known)); d <= 2 && len(k) > 3 {
			return true
		}
	}
	return false
}

// editDistance is the Levenshtein distance of two short keys.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
