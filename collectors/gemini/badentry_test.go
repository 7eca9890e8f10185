package gemini

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestBadEntries: a blank command once panicked the collector and the scan
// dropped the whole file, yolo mode included. A blank command is now a
// server without a command; a field of the wrong type is an errors[] entry
// at its line; the settings and the other servers are read all the same.
func TestBadEntries(t *testing.T) {
	const src = `{
  "general": {"defaultApprovalMode": "yolo"},
  "mcpServers": {
    "blank": {"command": " "},
    "tab": {"command": "\t", "args": ["x"]},
    "cmd-blank": {"command": "cmd", "args": ["/c", "   "]},
    "nulls": {"command": null, "args": null, "env": {"A": null}},
    "args-number": {"command": "npx", "args": ["-y", 1]},
    "env-list": {"command": "srv", "env": ["A"]},
    "skip": null,
    "number": 3,
    "fetch": {"command": "uvx", "args": ["mcp-server-fetch==1.0"]}
  }
}
`
	var doc model.Document
	err := New().Collect(context.Background(), ".gemini/settings.json", []byte(src), &doc)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 8 {
		t.Fatalf("Collect = %v, want a ParseError at line 8", err)
	}
	for _, want := range []string{`MCP server: args holds a number`, `MCP server: env is not an object (line 9)`,
		`MCP server is not an object`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(doc.Agents) != 1 || doc.Agents[0].ApprovalMode == nil || doc.Agents[0].ApprovalMode.Value != "bypass" {
		t.Errorf("agents = %+v, want the yolo settings", doc.Agents)
	}
	type srv struct {
		Name, Command, Launcher string
		Pinned                  bool
	}
	var got []srv
	for _, s := range doc.MCPServers {
		got = append(got, srv{s.Name, s.Command, s.Launcher, s.Pinned})
	}
	want := []srv{{"blank", "", "", false}, {"tab", "", "", false}, {"cmd-blank", "cmd", "", true}, {"nulls", "", "", false},
		{"args-number", "npx", "npx", false}, {"env-list", "srv", "", true}, {"fetch", "uvx", "uvx", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if err := New().Collect(context.Background(), ".gemini/settings.json", []byte(`{"mcpServers": []}`), &doc); !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("mcpServers as a list: err = %v, want a ParseError at line 1", err)
	}
}
