package codex

import (
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// approvalModes normalizes approval_policy: "never" runs every command
// without a person seeing it; the others stop to ask at some point.
var approvalModes = map[string]string{
	"never":      "bypass",
	"on-request": "ask",
	"untrusted":  "ask",
	"on-failure": "ask",
}

// agent builds the model of one profile ("" = the top level).
func (c *cfg) agent(profile string) model.Agent {
	a := model.Agent{Tool: "codex", Scope: c.scope, Profile: profile, Loc: model.Loc{File: c.file, Line: 1}}
	if profile != "" {
		a.Loc = c.loc("profiles", profile)
	}
	if m := c.str(profile, "sandbox_mode"); m != nil {
		a.SandboxMode = m
		a.SandboxEnabled = &model.Bool{Value: m.Value != "danger-full-access", Loc: m.Loc}
	}
	a.NetworkAccess = c.boolean(profile, "sandbox_workspace_write", "network_access")
	if v, loc, ok := c.get(profile, "approval_policy"); ok {
		switch t := v.(type) {
		case string:
			a.ApprovalRaw = &model.Str{Value: t, Loc: loc}
			if mode, known := approvalModes[t]; known {
				a.ApprovalMode = &model.Str{Value: mode, Loc: loc}
			}
		case map[string]any:
			// approval_policy = { granular = … } asks per category.
			a.ApprovalRaw = &model.Str{Value: "granular", Loc: loc}
		}
	}
	// Only an explicit inherit is recorded: absent means "all" upstream, and
	// a rule can treat a nil EnvInheritAll that way.
	if inh := c.str(profile, "shell_environment_policy", "inherit"); inh != nil {
		a.EnvInheritAll = &model.Bool{Value: inh.Value == "all", Loc: inh.Loc}
	}
	a.EnvIgnoreExcludes = c.boolean(profile, "shell_environment_policy", "ignore_default_excludes")
	a.HistoryPersist = c.str(profile, "history", "persistence")
	a.Env = c.setEnv(profile)
	return a
}

// setEnv reads shell_environment_policy.set: variables Codex puts into every
// command's environment, where the agent can read them.
func (c *cfg) setEnv(profile string) []model.EnvVar {
	v, _, ok := c.get(profile, "shell_environment_policy", "set")
	set, isMap := v.(map[string]any)
	if !ok || !isMap {
		return nil
	}
	parent := []string{"shell_environment_policy", "set"}
	if profile != "" {
		if _, own := lookup(c.root, []string{"profiles", profile, "shell_environment_policy", "set"}); own {
			parent = append([]string{"profiles", profile}, parent...)
		}
	}
	var out []model.EnvVar
	for _, k := range c.sortedKeys(set, parent...) {
		s, _ := set[k].(string)
		out = append(out, mcpcmd.EnvVar(k, s, c.loc(append(parent, k)...)))
	}
	return out
}

// envCredentials turns the literal secrets of env into credentials; the
// top level's set is reported once, not once per profile.
func envCredentials(env []model.EnvVar, where, context string) []model.Credential {
	var out []model.Credential
	for _, e := range env {
		if e.Secret != nil {
			out = append(out, model.Credential{SecretRef: *e.Secret, Where: where, Context: context + " " + e.Name, ReadableByAgent: true, Loc: e.Loc})
		}
	}
	return out
}

// envName is an environment variable's name as written for a key
// (OPENAI_API_KEY, Azure_Key): a lower-case run of letters and digits
// (cr_3f9a…) is a key.
var envName = regexp.MustCompile(`^[A-Z_][A-Za-z0-9_]*$`)

// providers reports model_providers.<id>.experimental_bearer_token (a
// plaintext API key in the file) and literal secrets in http_headers.
func (c *cfg) providers(doc *model.Document) {
	ps, _ := c.root["model_providers"].(map[string]any)
	for _, id := range c.sortedKeys(ps, "model_providers") {
		p, _ := ps[id].(map[string]any)
		if tok, ok := p["experimental_bearer_token"].(string); ok && tok != "" && !secrets.IsReference(tok) {
			ref := secrets.Detect(tok)
			if ref == nil {
				ref = &model.SecretRef{Kind: "bearer-token", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(tok)}
			}
			doc.Credentials = append(doc.Credentials, model.Credential{
				SecretRef: *ref, Where: "settings", ReadableByAgent: true,
				Context: "codex model provider " + id + " experimental_bearer_token",
				Loc:     c.loc("model_providers", id, "experimental_bearer_token"),
			})
		}
		// env_key names the variable Codex reads the key from: a value that
		// is no variable name but a key (cr_…, sk-…) is the key itself,
		// written where a name belongs.
		if k, ok := p["env_key"].(string); ok && k != "" && !envName.MatchString(k) {
			ref := secrets.Detect(k)
			if ref == nil && len(k) >= 24 && strings.ContainsAny(k, "0123456789") {
				ref = &model.SecretRef{Kind: "api-key", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(k)}
			}
			if ref != nil {
				doc.Credentials = append(doc.Credentials, model.Credential{
					SecretRef: *ref, Where: "settings", ReadableByAgent: true,
					Context: "codex model provider " + id + " env_key (a key written where a variable name belongs)",
					Loc:     c.loc("model_providers", id, "env_key"),
				})
			}
		}
		headers, _ := p["http_headers"].(map[string]any)
		for _, h := range c.sortedKeys(headers, "model_providers", id, "http_headers") {
			s, _ := headers[h].(string)
			if ref := secrets.DetectNamed(h, s); ref != nil {
				doc.Credentials = append(doc.Credentials, model.Credential{
					SecretRef: *ref, Where: "header", ReadableByAgent: true,
					Context: "codex model provider " + id + " header " + h,
					Loc:     c.loc("model_providers", id, "http_headers", h),
				})
			}
		}
	}
	// shell_environment_policy.set values of the top level and of every
	// profile that sets its own.
	doc.Credentials = append(doc.Credentials, envCredentials(c.setEnv(""), "settings", "codex shell_environment_policy.set")...)
	for _, name := range c.profiles() {
		if _, own := lookup(c.root, []string{"profiles", name, "shell_environment_policy", "set"}); own {
			doc.Credentials = append(doc.Credentials, envCredentials(c.setEnv(name), "settings", "codex profile "+name+" shell_environment_policy.set")...)
		}
	}
}
