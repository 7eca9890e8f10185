package mcp

import (
	"strings"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// url reads the server's endpoint (url; Gemini's httpUrl; Windsurf's
// serverUrl), redacted, and the secrets it embeds.
func (c *collector) url(v *hujson.Value, desc string, s *model.MCPServer) {
	var at *hujson.Value
	for _, key := range []string{"url", "httpUrl", "serverUrl"} {
		if u := field(v, key); text(u) != "" {
			at = u
			break
		}
	}
	if at == nil {
		return
	}
	raw := strings.TrimSpace(text(at))
	red, finds := redactURL(raw)
	s.URL = red
	for _, f := range finds {
		ctx := desc + " url"
		if f.what != "" {
			ctx += " " + f.what
		}
		c.credential(f.ref, "url", ctx, at)
	}
	_, literal := references(raw)
	s.PlainHTTP = plainHTTP(literal)
}

// env classifies the server's environment: literal secrets become
// credentials, references (${VAR}, ${env:VAR}, ${input:id}) are recorded
// as what they forward.
func (c *collector) env(v *hujson.Value, desc string, s *model.MCPServer) {
	for _, m := range members(field(v, "env")) {
		ev := model.EnvVar{Name: m.name, SensitiveName: secrets.SensitiveName(m.name), Loc: c.loc(m.key)}
		r, from := classify(m.name, text(m.value))
		if r != nil {
			ev.Secret = r
			c.credential(*r, "env", desc+" env "+m.name, m.value)
		}
		ev.FromHost = from
		s.Env = append(s.Env, ev)
	}
}

// headers records the literal credentials of the server's HTTP headers
// (the model keeps no header values).
func (c *collector) headers(v *hujson.Value, desc string) {
	for _, m := range members(field(v, "headers")) {
		if r := headerSecret(m.name, text(m.value)); r != nil {
			c.credential(*r, "header", desc+" header "+m.name, m.value)
		}
	}
}
