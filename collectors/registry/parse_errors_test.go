package registry_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
)

// TestParseErrorsQuoteNothing breaks a file of every format at a secret
// (the value an anchor, a literal, a Dockerfile line after a missing "\",
// a TOML value, a git config key names) and checks errors[] gives the
// position and the reason and no byte run of the secret.
func TestParseErrorsQuoteNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	random := func(n int) string {
		const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
		}
		return string(b)
	}
	// A token of a known format and a password no pattern knows.
	for _, s := range []string{"ghp_" + random(36), "pw" + random(18)} {
		cases := []struct{ file, content, reason string }{
			{"docker-compose.yml", "services:\n  a:\n    image: *" + s + "\n", "line 3: parse compose file: unknown anchor"},
			{"a/docker-compose.yml", "services:\n  a:\n    image: \"" + s + "\n", "line 3: parse compose file: found unexpected end of stream"},
			{"b/docker-compose.yml", "services:\n  a:\n    ports: !!int " + s + "\n", "line 3: parse compose file: cannot decode"},
			{"c/docker-compose.yml", "services:\n  a: " + s + "\n", "line 2: service a is a scalar, not a mapping"},
			{"k8s/pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: *" + s + "\n", "line 3: parse yaml: unknown anchor"},
			{".github/workflows/a.yml", "on: push\njobs: *" + s + "\n", "line 2: parse yaml: unknown anchor"},
			{".devcontainer/devcontainer.json", "{\"image\": " + s + "}", "line 1, column 11: parse devcontainer.json: invalid literal"},
			{"x/.devcontainer/devcontainer.json", "{\"image\": \"" + s, "line 1, column"},
			{".claude/settings.json", "{\"env\": {\"X\": " + s + "}}", "line 1: parse json: invalid literal"},
			{"y/.claude/settings.json", "{\"env\": {\"X\": \"a\"} " + s + "}", "line 1: parse json: invalid character after object value"},
			{".codex/config.toml", "model = " + s + "\n", "line 1, column 9: parse toml: unexpected character at start of value"},
			{"z/.codex/config.toml", "[mcp_servers.x]\nenv = { A = \"" + s + " }\n", "line 2"},
			{".gemini/settings.json", "{\"x\": " + s + "}", "line 1: parse json: invalid literal"},
			{".cursor/sandbox.json", "{" + s + "}", "line 1: parse json: invalid"},
			{".mcp.json", "{\"mcpServers\": {\"a\": {\"command\": " + s + "}}}", "line 1: parse json: invalid literal"},
			{"Dockerfile", "FROM alpine\nENV A=1\n" + s + "\n", "line 3: unknown instruction"},
			{"d/Dockerfile", s + " alpine\n", "line 1: unknown instruction"},
			{".git/config", "[core]\n\t" + s + " = \"x\n", "line 2: parse git config"},
			{"q/.git/config", "[" + s + "\n", "line 1: parse git config: bad section header"},
		}
		dir := t.TempDir()
		for _, c := range cases {
			p := filepath.Join(dir, filepath.FromSlash(c.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, errs, err := collectors.Scan(context.Background(), dir, collectors.Options{Collectors: registry.All()})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range errs {
			got[e.File] = e.Message
			for i := 0; i+6 <= len(s); i++ {
				if strings.Contains(e.Message, s[i:i+6]) {
					t.Errorf("%s: %q quotes %q of the secret", e.File, e.Message, s[i:i+6])
					break
				}
			}
		}
		for _, c := range cases {
			msg, ok := got[c.file]
			if !ok {
				t.Errorf("%s: no errors[] entry", c.file)
				continue
			}
			if !strings.Contains(msg, c.reason) {
				t.Errorf("%s: %q, want it to say %q", c.file, msg, c.reason)
			}
		}
	}
}
