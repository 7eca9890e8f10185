package opencode

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
)

var fuzzSeeds = []string{
	`{"$schema": "https://opencode.ai/config.json", "instructions": ["AGENTS.md"]}`,
	`{"permission": "allow", "tools": {"bash": false}, "agent": {"build": {"permission": {"bash": {"*": "ask", "git *": "allow"}}}}}`,
	`{"default_agent": "plan", "permission": {"*": "ask", "bash": {"rm *": "deny"}, "edit": "deny"}, "provider": {"x": {"options": {"apiKey": "{file:~/.key}", "headers": {"X-Key": "abc"}}}}}`,
	`{"mcp": {"a": {"type": "remote", "url": "http://u:p@h/x?k=v", "headers": {"Authorization": "Bearer x"}}, "b": null, "c": 1, "d": {"command": [null, 1], "environment": []}}}`,
	"// comment\n{\"permission\": {\"bash\": {\"*\": \"allow\",},},}",
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/opencode/*/opencode.json*"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), "opencode.json", data, fuzzcheck.Options{})
		if root, perr := jsonpos.Parse(data); perr != nil || root.Kind != jsonpos.Object {
			if err == nil || len(doc.Agents) != 0 {
				t.Fatalf("err = %v with %d agents from a file that is not a config object", err, len(doc.Agents))
			}
			return
		}
		if len(doc.Agents) == 0 || doc.Agents[0].Profile != "" {
			t.Fatalf("agents %+v: the default agent first", doc.Agents)
		}
		for _, s := range doc.Agents[1:] {
			if s.Profile == "" || s.ApprovalMode != nil || len(s.Allow)+len(s.Ask)+len(s.Deny) == 0 {
				t.Fatalf("subagent %+v", s)
			}
		}
		a := doc.Agents[0]
		if (a.ApprovalMode == nil) != (a.ApprovalRaw == nil) {
			t.Fatalf("approval mode %+v without its raw value %+v", a.ApprovalMode, a.ApprovalRaw)
		}
		for _, m := range doc.MCPServers {
			if m.Config != "opencode" {
				t.Fatalf("inconsistent server %+v", m)
			}
		}
	})
}
