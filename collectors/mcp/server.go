package mcp

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// url reads the server's endpoint (url; Gemini's httpUrl; Windsurf's
// serverUrl), redacted, and the secrets it embeds.
func (c *collector) url(v *jsonpos.Value, desc string, s *model.MCPServer) {
	var at *jsonpos.Value
	for _, key := range []string{"url", "httpUrl", "serverUrl"} {
		if u := v.Get(key); text(u) != "" {
			at = u
			break
		}
	}
	if at == nil {
		return
	}
	raw := strings.TrimSpace(text(at))
	red, finds := secrets.Hide(raw)
	s.URL = red
	for _, f := range finds {
		ctx := desc + " url"
		if f.Name != "" {
			ctx += " " + f.Name
		}
		c.credential(f.SecretRef, "url", ctx, at)
	}
	_, literal := references(raw)
	s.PlainHTTP = plainHTTP(literal)
}

// env classifies the server's environment: literal secrets become
// credentials, references (${VAR}, ${env:VAR}, ${input:id}) are recorded
// as what they forward.
func (c *collector) env(v *jsonpos.Value, desc string, s *model.MCPServer) {
	for _, m := range members(v.Get("env")) {
		ev := model.EnvVar{Name: m.Key, SensitiveName: secrets.SensitiveEnv(m.Key, text(m.Value), true), Loc: c.loc(m.Line)}
		r, from := classify(m.Key, text(m.Value))
		if r != nil {
			ev.Secret = r
			c.credential(*r, "env", desc+" env "+m.Key, m.Value)
		}
		ev.FromHost = from
		s.Env = append(s.Env, ev)
	}
}

// headers records the server's HTTP headers: name, the variable or
// input a value comes from, and literal credentials (kept only as
// credentials; the model keeps no header values).
func (c *collector) headers(v *jsonpos.Value, desc string, s *model.MCPServer) {
	for _, m := range members(v.Get("headers")) {
		h := model.EnvVar{Name: m.Key, SensitiveName: secrets.SensitiveName(m.Key) || strings.EqualFold(m.Key, "authorization"), Loc: c.loc(m.Line)}
		h.FromHost, _ = references(text(m.Value))
		if r := headerSecret(m.Key, text(m.Value)); r != nil {
			h.Secret = r
			c.credential(*r, "header", desc+" header "+m.Key, m.Value)
		}
		s.Headers = append(s.Headers, h)
	}
}
