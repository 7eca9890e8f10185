package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func TestMatchAndKind(t *testing.T) {
	tests := map[string]string{ // path -> config kind, "" = not matched
		".mcp.json": "mcp.json", "pkg/.mcp.json": "mcp.json", ".vscode/mcp.json": "vscode",
		".cursor/mcp.json": "cursor", "tools/mcp.json": "mcp.json",
		"Library/Application Support/Claude/claude_desktop_config.json": "claude-desktop",
		"mcp.jsonc": "", "package.json": "", ".vscode/settings.json": "",
	}
	for p, want := range tests {
		matched := (Collector{}).Match(p)
		if matched != (want != "") || (matched && configKind(p) != want) {
			t.Errorf("Match(%q) = %v, kind %q; want kind %q", p, matched, configKind(p), want)
		}
	}
}

func TestNotMCP(t *testing.T) {
	for _, in := range []string{`{}`, `[]`, `"x"`, `{"name": "pkg", "servers": []}`, `{"mcpServers": {"x": "not an object"}}`} {
		doc := &model.Document{}
		if err := (Collector{}).Collect(context.Background(), "mcp.json", []byte(in), doc); err != nil || len(doc.MCPServers) != 0 {
			t.Errorf("Collect(%s) = %v with %d servers; want nil and none", in, err, len(doc.MCPServers))
		}
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
	}{
		{"missing comma", "{\n  \"mcpServers\": {\n    \"a\": {}\n    \"b\": {}\n  }\n}\n", 4},
		{"unterminated string", "{\n\"mcpServers\": {\"a\": {\"command\": \"npx}}}\n", 3},
		{"binary junk", "\x00\x01\xfe\xff", 1},
		{"empty", "", 1},
		{"deep nesting", strings.Repeat("[", 1<<20), 1},
		{"deep nesting across lines", "{\"a\":\n" + strings.Repeat("{\"a\":", 600), 2},
		{"unterminated comment", "{ /* never closed\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			err := Collector{}.Collect(context.Background(), ".mcp.json", []byte(tt.in), &model.Document{})
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Collect() = %v, want *collectors.ParseError", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tt.line, err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/mcp/*/.mcp.json", "../../fixtures/mcp/*/.vscode/mcp.json"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, Collector{}, ".vscode/mcp.json", data, fuzzcheck.Options{})
		// A file that does not parse adds nothing; a bad entry of one that
		// does comes back beside the other entries' facts.
		if _, perr := jsonpos.Parse(data); err != nil && perr != nil && len(doc.MCPServers) != 0 {
			t.Fatalf("servers from a malformed file")
		}
		for _, s := range doc.MCPServers {
			if s.File != ".vscode/mcp.json" || s.Config != "vscode" {
				t.Fatalf("inconsistent server %+v", s)
			}
			if s.Launcher == "" && s.Command != "" && !s.Pinned {
				t.Fatalf("direct command %q not pinned", s.Command)
			}
			if s.Command != strings.TrimSpace(s.Command) {
				t.Fatalf("command %q kept its blanks", s.Command)
			}
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" {
				t.Fatalf("credential without fingerprint %+v", c)
			}
		}
	})
}

// TestBadEntries: one server entry that no client could launch (a blank
// command, args that are not strings, env that is not an object) yields an
// errors[] entry at its line, and every other entry is still read.
func TestBadEntries(t *testing.T) {
	const src = `{
  "mcpServers": {
    "blank": {"command": " "},
    "tab": {"command": "\t", "args": []},
    "quotes": {"command": "\"\""},
    "dashes": {"command": "--"},
    "cmd-blank": {"command": "cmd", "args": ["/c", " "]},
    "nulls": {"command": null, "args": null, "env": null, "headers": {"X": null}},
    "bad-args": {"command": "npx", "args": ["-y", 7, {"a": null}]},
    "args-string": {"command": "npx", "args": "-y pkg"},
    "env-list": {"command": "srv", "env": ["A=1"]},
    "env-nested": {"command": "srv", "env": {"A": {"b": null}}},
    "command-object": {"command": {"path": "npx"}},
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@latest"]}
  }
}
`
	doc := &model.Document{}
	err := Collector{}.Collect(context.Background(), ".mcp.json", []byte(src), doc)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 9 {
		t.Fatalf("Collect() = %v, want a ParseError at line 9", err)
	}
	for _, want := range []string{`MCP server: args holds a number`, `MCP server: args is not a list of strings (line 10)`,
		`MCP server: env is not an object (line 11)`, `MCP server: a value of env is not a string (line 12)`,
		`MCP server: command is not a string (line 13)`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	type srv struct{ Name, Command, Launcher, Package, Version string }
	var got []srv
	for _, s := range doc.MCPServers {
		got = append(got, srv{s.Name, s.Command, s.Launcher, s.Package, s.Version})
	}
	want := []srv{
		{"blank", "", "", "", ""}, {"tab", "", "", "", ""}, {"quotes", `""`, "", "", ""}, {"dashes", "--", "", "", ""},
		{"cmd-blank", "cmd", "", "", ""}, {"nulls", "", "", "", ""}, {"bad-args", "npx", "npx", "7", ""},
		{"args-string", "npx", "npx", "", ""}, {"env-list", "srv", "", "", ""}, {"env-nested", "srv", "", "", ""},
		{"command-object", "", "", "", ""}, {"github", "npx", "npx", "@modelcontextprotocol/server-github", "latest"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
}
