package codex

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// yoloBeside is the reported case: a blank-command MCP server once panicked
// the collector and the scan dropped the whole file, hiding the
// danger-full-access, never-ask profile written beside it.
const yoloBeside = `[mcp_servers.blank]
command = " "

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp@1.2.3"]

[profiles.yolo]
sandbox_mode = "danger-full-access"
approval_policy = "never"
`

func TestBlankCommandKeepsProfiles(t *testing.T) {
	for blank, cmd := range map[string]string{`""`: "", `" "`: "", `"\t"`: "", `" \n "`: "", `"\"\""`: `""`, `"--"`: "--"} {
		t.Run(blank, func(t *testing.T) {
			src := strings.Replace(yoloBeside, `" "`, blank, 1)
			doc, err := collect(t, src)
			if err != nil {
				t.Fatalf("Collect = %v; a blank command is a fact, not an error", err)
			}
			var profiles []string
			for _, a := range doc.Agents {
				if a.Profile == "yolo" && a.SandboxMode != nil && a.ApprovalMode != nil {
					profiles = append(profiles, a.SandboxMode.Value+" "+a.ApprovalMode.Value)
				}
			}
			if diff := cmp.Diff([]string{"danger-full-access bypass"}, profiles); diff != "" {
				t.Errorf("yolo profile (-want +got):\n%s", diff)
			}
			type srv struct {
				Name, Command, Launcher string
				Pinned                  bool
				Line                    int
			}
			var got []srv
			for _, s := range doc.MCPServers {
				got = append(got, srv{s.Name, s.Command, s.Launcher, s.Pinned, s.Line})
			}
			want := []srv{{"blank", cmd, "", cmd != "", 1}, {"docs", "npx", "npx", true, 4}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWrongTypes: a field of the wrong type is an errors[] entry at its
// line; the other fields, entries and profiles are still collected.
func TestWrongTypes(t *testing.T) {
	src := `mcp_servers.a.command = 7
mcp_servers.b.args = "-y pkg"
[mcp_servers.c]
command = "srv"
args = ["--port", 8080]
env = { A = 1, B = "x" }
env_vars = "HOME"
http_headers = ["Authorization: x"]
enabled = "false"
[mcp_servers.d]
command = "uvx"
args = ["tool==1.0"]
[profiles.yolo]
sandbox_mode = "danger-full-access"
`
	doc, err := collect(t, src)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Fatalf("Collect = %v, want a ParseError at line 1", err)
	}
	for _, want := range []string{`MCP server: command is not a string`, `MCP server: args is not a list of strings (line 2)`,
		`MCP server: args holds a value that is not a string (line 5)`, `MCP server: env holds`,
		`MCP server: env_vars is not a list of strings (line 7)`, `MCP server: http_headers is not a table (line 8)`,
		`MCP server: enabled is not a boolean (line 9)`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	var names []string
	for _, s := range doc.MCPServers {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, names); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if len(doc.Agents) != 2 || doc.Agents[1].SandboxEnabled == nil || doc.Agents[1].SandboxEnabled.Value {
		t.Errorf("agents = %+v, want the top level and the yolo profile", doc.Agents)
	}
	for bad, line := range map[string]int{"mcp_servers = 1\n": 1, "mcp_servers = [1]\n": 1, "[mcp_servers]\nx = 1\n": 2} {
		var d model.Document
		err := New().Collect(context.Background(), ".codex/config.toml", []byte(bad), &d)
		if !errors.As(err, &pe) || pe.Line != line || len(d.Agents) != 1 {
			t.Errorf("%q: err = %v, agents = %d; want a ParseError at line %d and the top-level agent", bad, err, len(d.Agents), line)
		}
	}
}
