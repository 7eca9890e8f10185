package gemini

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const fakePAT = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"

func collectFixture(t *testing.T, dir string) (model.Document, string) {
	t.Helper()
	p := "fixtures/gemini/" + dir + "/.gemini/settings.json"
	data, err := os.ReadFile("../../" + p)
	if err != nil {
		t.Fatal(err)
	}
	var doc model.Document
	if err := New().Collect(context.Background(), p, data, &doc); err != nil {
		t.Fatalf("Collect = %v", err)
	}
	return doc, p
}

func TestInsecureFixture(t *testing.T) {
	doc, p := collectFixture(t, "insecure")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	s := func(v string, l int) *model.Str { return &model.Str{Value: v, Loc: at(l)} }
	b := func(v bool, l int) *model.Bool { return &model.Bool{Value: v, Loc: at(l)} }
	want := []model.Agent{{
		Tool: "gemini", Scope: "project", Loc: at(1),
		SandboxEnabled: b(false, 3),
		ApprovalRaw:    s("yolo", 2), ApprovalMode: s("bypass", 2),
		BypassDisabled: b(false, 4),
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	pat := secrets.DetectNamed("GITHUB_PERSONAL_ACCESS_TOKEN", fakePAT)
	wantMCP := []model.MCPServer{{
		Name: "github", Config: "gemini", Transport: "stdio", Loc: at(6),
		Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github@latest"},
		Launcher: "npx", Package: "@modelcontextprotocol/server-github", Version: "latest",
		Trusted: b(true, 10),
		Env:     []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", Secret: pat, SensitiveName: true, Loc: at(9)}},
	}, {
		Name: "search", Config: "gemini", Transport: "http", Loc: at(12),
		URL: "http://mcp.search.example.com/mcp", PlainHTTP: true,
	}}
	if diff := cmp.Diff(wantMCP, doc.MCPServers); diff != "" {
		t.Errorf("mcp servers (-want +got):\n%s", diff)
	}
	wantCreds := []model.Credential{{SecretRef: *pat, Where: "env", Context: "gemini MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN", ReadableByAgent: true, Loc: at(9)}}
	if diff := cmp.Diff(wantCreds, doc.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

func TestHardenedFixture(t *testing.T) {
	doc, p := collectFixture(t, "hardened")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	s := func(v string, l int) *model.Str { return &model.Str{Value: v, Loc: at(l)} }
	b := func(v bool, l int) *model.Bool { return &model.Bool{Value: v, Loc: at(l)} }
	want := []model.Agent{{
		Tool: "gemini", Scope: "project", Loc: at(1),
		SandboxEnabled: b(true, 3), SandboxMode: s("docker", 3),
		ApprovalRaw: s("default", 2), ApprovalMode: s("default", 2),
		BypassDisabled: b(true, 4),
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	digest := "sha256:3a5e8f2b9c1d4e7f6a8b0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e2f"
	wantMCP := []model.MCPServer{{
		Name: "github", Config: "gemini", Transport: "stdio", Loc: at(6),
		Command:  "docker",
		Args:     []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server@" + digest},
		Launcher: "docker", Package: "ghcr.io/github/github-mcp-server", Version: digest, Pinned: true,
		Trusted: b(false, 13),
		Env:     []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", FromHost: "GITHUB_TOKEN", SensitiveName: true, Loc: at(12)}},
	}}
	if diff := cmp.Diff(wantMCP, doc.MCPServers); diff != "" {
		t.Errorf("mcp servers (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("credentials = %v, want none", doc.Credentials)
	}
}

func TestSandboxAndApprovalForms(t *testing.T) {
	type facts struct{ Enabled, Mode, Approval, Raw string }
	tests := []struct {
		name, src string
		want      facts
	}{
		{"legacy flat", `{"sandbox": "podman", "autoAccept": true}`, facts{"true", "podman", "auto", "autoAccept"}},
		{"legacy yolo", `{"sandbox": true, "yolo": true}`, facts{"true", "", "bypass", "yolo"}},
		{"custom object", `{"tools": {"sandbox": {"command": "runsc", "image": "x"}}, "general": {"defaultApprovalMode": "auto_edit"}}`, facts{"true", "runsc", "auto", "auto_edit"}},
		{"string false", `{"tools": {"sandbox": "false"}}`, facts{"false", "", "", ""}},
		{"nothing", `{}`, facts{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc model.Document
			if err := New().Collect(context.Background(), ".gemini/settings.json", []byte(tt.src), &doc); err != nil {
				t.Fatal(err)
			}
			a := doc.Agents[0]
			var got facts
			if a.SandboxEnabled != nil {
				got.Enabled = map[bool]string{true: "true", false: "false"}[a.SandboxEnabled.Value]
			}
			if a.SandboxMode != nil {
				got.Mode = a.SandboxMode.Value
			}
			if a.ApprovalMode != nil {
				got.Approval, got.Raw = a.ApprovalMode.Value, a.ApprovalRaw.Value
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("facts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		".gemini/settings.json": true, "home/u/.gemini/settings.json": true, "etc/gemini-cli/settings.json": true,
		"settings.json": false, ".gemini/GEMINI.md": false, ".vscode/settings.json": false,
	} {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
	if scope("home/u/.gemini/settings.json") != "user" || scope("etc/gemini-cli/settings.json") != "managed" {
		t.Error("scope of user or system settings is wrong")
	}
}

func TestMalformed(t *testing.T) {
	for name, src := range map[string]string{
		"syntax": "{\n\"tools\": {\"sandbox\": }\n}", "array": "[]", "deep": strings.Repeat("{\"a\":", 100_000),
	} {
		var doc model.Document
		err := New().Collect(context.Background(), ".gemini/settings.json", []byte(src), &doc)
		var pe *collectors.ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || len(doc.Agents) != 0 {
			t.Errorf("%s: err = %v, agents = %d; want a ParseError with a line and no facts", name, err, len(doc.Agents))
		}
	}
}

// TestToolLists: tools.core (coreTools in the flat form) is the only set of
// built-in tools; tools.allowed skips confirmation; tools.exclude removes.
func TestToolLists(t *testing.T) {
	p := ".gemini/settings.json"
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	tests := []struct {
		name, src          string
		tools, allow, deny []model.Str
	}{
		{"nested", `{
  "tools": {
    "core": ["run_shell_command(git diff)", "read_file"],
    "allowed": ["run_shell_command(git status)"],
    "exclude": ["write_file", 7]
  }
}`, []model.Str{{Value: "run_shell_command(git diff)", Loc: at(3)}, {Value: "read_file", Loc: at(3)}},
			[]model.Str{{Value: "run_shell_command(git status)", Loc: at(4)}},
			[]model.Str{{Value: "write_file", Loc: at(5)}}},
		{"flat", `{
  "coreTools": ["run_shell_command(echo)"],
  "excludeTools": ["run_shell_command(rm)"]
}`, []model.Str{{Value: "run_shell_command(echo)", Loc: at(2)}}, nil,
			[]model.Str{{Value: "run_shell_command(rm)", Loc: at(3)}}},
		{"none", `{"theme": "Atom One"}`, nil, nil, nil},
		{"empty core", `{"tools": {"core": []}}`, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc model.Document
			if err := New().Collect(context.Background(), p, []byte(tt.src), &doc); err != nil {
				t.Fatal(err)
			}
			a := doc.Agents[0]
			if listed := tt.name != "none"; (a.ToolList != nil) != listed {
				t.Errorf("tool list = %v, want set %v", a.ToolList, listed)
			}
			if diff := cmp.Diff(tt.tools, a.Tools); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.allow, a.Allow); diff != "" {
				t.Errorf("allow (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.deny, a.Deny); diff != "" {
				t.Errorf("deny (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApprovalMode(t *testing.T) {
	for raw, want := range map[string]string{"yolo": "bypass", "auto_edit": "auto", "plan": "plan", "default": "default"} {
		if got, ok := ApprovalMode(raw); !ok || got != want {
			t.Errorf("ApprovalMode(%q) = %q, %v, want %q", raw, got, ok, want)
		}
	}
	if _, ok := ApprovalMode("sometimes"); ok {
		t.Error("an unknown mode is known")
	}
}

// A file that leaves the sandbox alone speaks for review only.
func TestSpeaks(t *testing.T) {
	for src, want := range map[string][]string{
		`{"mcpServers": {}}`:               {"review"},
		`{"tools": {"sandbox": "docker"}}`: nil,
		`{"sandbox": false}`:               nil,
	} {
		var doc model.Document
		if err := New().Collect(context.Background(), ".gemini/settings.json", []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Agents) != 1 || !slices.Equal(doc.Agents[0].Speaks, want) {
			t.Errorf("%s: agents %+v, want speaks %v", src, doc.Agents, want)
		}
	}
}
