package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
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
	paths, _ := filepath.Glob("../../fixtures/mcp/*/.mcp.json")
	more, _ := filepath.Glob("../../fixtures/mcp/*/.vscode/mcp.json")
	for _, p := range append(paths, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"servers": {"a": {"command": "docker", "args": ["run", "-e", "K=V", "--header", "Authorization: x", "img@sha256:"]}}}`))
	f.Add([]byte(`{"mcpServers": {"a": {"url": "http://u:p@h/?k=${input:x}&t=v#f", "headers": {"Authorization": "Bearer ${X:-y}"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := &model.Document{}
		err := Collector{}.Collect(context.Background(), ".vscode/mcp.json", data, doc)
		if err != nil {
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a ParseError: %v", err)
			}
			if len(doc.MCPServers) != 0 {
				t.Fatalf("servers from a malformed file")
			}
		}
		lines := strings.Count(string(data), "\n") + 1
		for _, s := range doc.MCPServers {
			if s.File != ".vscode/mcp.json" || s.Line < 1 || s.Line > lines || s.Config != "vscode" {
				t.Fatalf("inconsistent server %+v", s)
			}
			if s.Launcher == "" && s.Command != "" && !s.Pinned {
				t.Fatalf("direct command %q not pinned", s.Command)
			}
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" || c.Line < 1 || c.Line > lines {
				t.Fatalf("inconsistent credential %+v", c)
			}
		}
	})
}
