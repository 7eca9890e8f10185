package cursor

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func collectFixture(t *testing.T, dir string) (model.Document, string) {
	t.Helper()
	p := "fixtures/cursor/" + dir + "/.cursor/sandbox.json"
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

func TestFixtures(t *testing.T) {
	tests := []struct {
		dir  string
		want func(at func(int) model.Loc) model.Agent
	}{
		{"insecure", func(at func(int) model.Loc) model.Agent {
			return model.Agent{
				Tool: "cursor", Scope: "project", Loc: at(1),
				SandboxMode:    &model.Str{Value: "insecure_none", Loc: at(2)},
				SandboxEnabled: &model.Bool{Value: false, Loc: at(2)},
				NetworkDefault: &model.Str{Value: "allow", Loc: at(4)},
				NetworkAccess:  &model.Bool{Value: true, Loc: at(4)},
				UnknownKeys:    []model.Str{{Value: "allowGitWrites", Loc: at(6)}},
				Speaks:         []string{"network"},
			}
		}},
		{"hardened", func(at func(int) model.Loc) model.Agent {
			return model.Agent{
				Tool: "cursor", Scope: "project", Loc: at(1),
				SandboxMode:    &model.Str{Value: "workspace_readwrite", Loc: at(2)},
				SandboxEnabled: &model.Bool{Value: true, Loc: at(2)},
				NetworkDefault: &model.Str{Value: "deny", Loc: at(5)},
				AllowedDomains: []model.Str{{Value: "github.com", Loc: at(6)}, {Value: "registry.npmjs.org", Loc: at(6)}},
				Speaks:         []string{"network"},
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			doc, p := collectFixture(t, tt.dir)
			want := []model.Agent{tt.want(func(l int) model.Loc { return model.Loc{File: p, Line: l} })}
			if diff := cmp.Diff(want, doc.Agents); diff != "" {
				t.Errorf("agents (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownNetworkKey(t *testing.T) {
	var doc model.Document
	src := "{\"networkPolicy\": {\n \"default\": \"deny\",\n \"allowlist\": [\"x.com\"]}}"
	if err := New().Collect(context.Background(), "home/u/.cursor/sandbox.json", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Agents[0]
	want := []model.Str{{Value: "networkPolicy.allowlist", Loc: model.Loc{File: "home/u/.cursor/sandbox.json", Line: 3}}}
	if diff := cmp.Diff(want, a.UnknownKeys); diff != "" || a.Scope != "user" || len(a.AllowedDomains) != 0 {
		t.Errorf("unknown keys (-want +got):\n%s scope=%s domains=%v", diff, a.Scope, a.AllowedDomains)
	}
}

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		".cursor/sandbox.json": true, "a/.cursor/sandbox.json": true, "sandbox.json": false, ".cursor/mcp.json": false,
		".cursor/cli.json": true, "home/u/.cursor/cli-config.json": true, "cli.json": false, "conf/cli.json": false,
	} {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestMalformed(t *testing.T) {
	for _, src := range []string{"{\"type\": ", "\x00", "\"str\"", "{\"a\": [}"} {
		var doc model.Document
		err := New().Collect(context.Background(), ".cursor/sandbox.json", []byte(src), &doc)
		var pe *collectors.ParseError
		if !errors.As(err, &pe) || len(doc.Agents) != 0 {
			t.Errorf("%q: err = %v, agents = %d; want a ParseError and no facts", src, err, len(doc.Agents))
		}
	}
}

// TestCLIPermissions: the Cursor CLI's permission rules are read as
// written, a token in one is a credential and never kept, and the user's
// cli-config.json is user scope.
func TestCLIPermissions(t *testing.T) {
	const pat = "ghp_R8x2Lq9ZkT4mWv7NbP3sYd6QhJ1cF5gE0aUo"
	src := `{
  "permissions": {
    "allow": ["Shell(ls)", "Shell(git)", "Read(src/**)", "Shell(curl -H 'Authorization: Bearer ` + pat + `')"],
    "deny": ["Shell(rm)", "Read(.env*)"]
  }
}`
	var doc model.Document
	if err := New().Collect(context.Background(), ".cursor/cli.json", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Agents) != 1 {
		t.Fatalf("agents = %+v", doc.Agents)
	}
	a := doc.Agents[0]
	var allow, deny []string
	for _, r := range a.Allow {
		allow = append(allow, r.Value)
	}
	for _, r := range a.Deny {
		deny = append(deny, r.Value)
	}
	if diff := cmp.Diff([]string{"Shell(ls)", "Shell(git)", "Read(src/**)"}, allow[:3]); diff != "" {
		t.Errorf("allow (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Shell(rm)", "Read(.env*)"}, deny); diff != "" {
		t.Errorf("deny (-want +got):\n%s", diff)
	}
	if a.Scope != "project" || a.Tool != "cursor" || a.Allow[0].Line != 3 {
		t.Errorf("agent = %+v", a)
	}
	if strings.Contains(allow[3], pat) || len(doc.Credentials) != 1 || doc.Credentials[0].Line != 3 {
		t.Errorf("token kept or not counted: allow %q, credentials %+v", allow[3], doc.Credentials)
	}
	var user model.Document
	if err := New().Collect(context.Background(), "home/u/.cursor/cli-config.json", []byte(`{"permissions": {"allow": ["Shell(**)"]}, "editor": {"vimMode": true}}`), &user); err != nil {
		t.Fatal(err)
	}
	if len(user.Agents) != 1 || user.Agents[0].Scope != "user" || len(user.Agents[0].UnknownKeys) != 0 {
		t.Errorf("cli-config.json agents = %+v", user.Agents)
	}
}

// TestCLIUnreadable: permission rules that cannot be read as rules are an
// error (the file then leaves review unknown), never an empty list that
// passes; a misspelt key is an unknown setting.
func TestCLIUnreadable(t *testing.T) {
	for _, src := range []string{`{"permissions": []}`, `{"permissions": {"allow": "Shell(*)"}}`, `{"permissions": {"deny": ["Shell(rm)", 1]}}`} {
		var doc model.Document
		err := New().Collect(context.Background(), ".cursor/cli.json", []byte(src), &doc)
		var pe *collectors.ParseError
		if !errors.As(err, &pe) || len(doc.Agents) != 0 {
			t.Errorf("%s: err = %v, agents = %d; want a ParseError and no facts", src, err, len(doc.Agents))
		}
	}
	var doc model.Document
	if err := New().Collect(context.Background(), ".cursor/cli.json", []byte(`{"version": 1, "permisions": {"allow": ["Shell(*)"]}, "permissions": {"alow": []}}`), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range doc.Agents[0].UnknownKeys {
		got = append(got, k.Value)
	}
	if diff := cmp.Diff([]string{"permisions", "permissions.alow"}, got); diff != "" {
		t.Errorf("unknown keys (-want +got):\n%s", diff)
	}
}

// TestForeignRules: a rule in another agent's form (Claude Code's
// Bash(python:*)) is not a Cursor CLI rule. Ignored allow rules grant
// nothing and are dropped; ignored deny rules are named as an unknown
// setting, at the first of them, since the protection they mean is off.
func TestForeignRules(t *testing.T) {
	src := `{
  "permissions": {
    "allow": ["Bash(python:*)", "Shell(ls)", "Bash(curl:*)"],
    "deny": ["Shell(rm)", "Bash(rm -rf /:*)", "Bash(sudo:*)", "Edit(.env)", "Bash(dd:*)"]
  }
}`
	var doc model.Document
	if err := New().Collect(context.Background(), ".cursor/cli.json", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Agents[0]
	if len(a.Allow) != 1 || a.Allow[0].Value != "Shell(ls)" || len(a.Deny) != 1 || a.Deny[0].Value != "Shell(rm)" {
		t.Errorf("allow %+v deny %+v; want only the Shell rules", a.Allow, a.Deny)
	}
	if len(a.UnknownKeys) != 1 || a.UnknownKeys[0].Line != 4 ||
		a.UnknownKeys[0].Value != "permissions.deny rules Bash(rm -rf /:*), Bash(sudo:*), Edit(.env) and 1 more (the CLI reads Shell(…), Read(…), Write(…), WebFetch(…), Mcp(…) rules only)" {
		t.Errorf("unknown keys = %+v", a.UnknownKeys)
	}
}
