package opencode

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func collect(t *testing.T, p, src string) (model.Document, error) {
	t.Helper()
	var doc model.Document
	err := New().Collect(context.Background(), p, []byte(src), &doc)
	return doc, err
}

func fixture(t *testing.T, dir, name string) (model.Document, string) {
	t.Helper()
	p := "fixtures/opencode/" + dir + "/" + name
	data, err := os.ReadFile("../../" + p)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := collect(t, p, string(data))
	if err != nil {
		t.Fatalf("Collect = %v", err)
	}
	return doc, p
}

func TestMatchAndScope(t *testing.T) {
	c := New()
	for p, want := range map[string]string{
		"opencode.json":                           "project",
		"svc/opencode.jsonc":                      "project",
		".opencode/opencode.json":                 "project",
		"home/dev/.config/opencode/opencode.json": "user",
		"etc/opencode/opencode.json":              "managed",
	} {
		if !c.Match(p) {
			t.Errorf("Match(%q) = false", p)
		}
		if got := scope(p); got != want {
			t.Errorf("scope(%q) = %q, want %q", p, got, want)
		}
	}
	for _, p := range []string{"opencode.yaml", "package.json", ".opencode/agents/review.md", "tui.json"} {
		if c.Match(p) {
			t.Errorf("Match(%q) = true", p)
		}
	}
}

func TestInsecureFixture(t *testing.T) {
	doc, p := fixture(t, "insecure", "opencode.jsonc")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	want := []model.Agent{{
		Tool: "opencode", Scope: "project", Loc: at(1), Speaks: []string{"review"},
		// at the first bash rule that still decides something
		ApprovalRaw:  &model.Str{Value: DefaultMode, Loc: at(9)},
		ApprovalMode: &model.Str{Value: "bypass", Loc: at(9)},
		// the deny of git push is overridden by the later git *
		// edits: OpenCode's default, allow
		Allow: []model.Str{{Value: "edit", Loc: at(1)}, {Value: "bash(git *)", Loc: at(9)}},
		Deny:  []model.Str{{Value: "bash(rm -rf *)", Loc: at(10)}},
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if len(doc.MCPServers) != 2 {
		t.Fatalf("%d MCP servers, want github and docs (off is disabled): %+v", len(doc.MCPServers), doc.MCPServers)
	}
	gh, docs := doc.MCPServers[0], doc.MCPServers[1]
	if gh.Name != "github" || gh.Launcher != "npx" || gh.Package != "@modelcontextprotocol/server-github" || gh.Pinned || gh.Config != "opencode" {
		t.Errorf("github server = %+v", gh)
	}
	if len(gh.Env) != 1 || gh.Env[0].Secret == nil {
		t.Errorf("github env = %+v, want one literal secret", gh.Env)
	}
	if docs.Name != "docs" || docs.Transport != "http" || !docs.PlainHTTP {
		t.Errorf("docs server = %+v", docs)
	}
	var where []string
	for _, c := range doc.Credentials {
		where = append(where, c.Context)
		if !c.ReadableByAgent {
			t.Errorf("credential %+v not readable by the agent", c)
		}
	}
	if diff := cmp.Diff([]string{"opencode config provider openai options.apiKey", "opencode config MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN"}, where); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

func TestHardenedFixture(t *testing.T) {
	doc, p := fixture(t, "hardened", "opencode.json")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	want := []model.Agent{{
		Tool: "opencode", Scope: "project", Loc: at(1), Speaks: []string{"review"},
		// "*": "ask" comes before every allow: where an allow matches, the
		// allow wins, so it holds nothing back.
		Allow: []model.Str{{Value: "bash(git status *)", Loc: at(7)}, {Value: "bash(git diff *)", Loc: at(8)}, {Value: "bash(npm test)", Loc: at(9)}},
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("credentials from {env:…} references: %+v", doc.Credentials)
	}
	for _, s := range doc.MCPServers {
		for _, e := range append(s.Env, s.Headers...) {
			if e.Secret != nil || e.FromHost == "" {
				t.Errorf("%s: %+v, want a forwarded variable", s.Name, e)
			}
		}
	}
}

// OpenCode evaluates rules in order and the last match wins; the agent's
// own permission and legacy tools switches come after the global one.
func TestPermissionOrder(t *testing.T) {
	cases := []struct {
		name, src        string
		mode             string // ApprovalRaw, "" when none
		allow, ask, deny []string
	}{
		{"empty file: default allow", `{}`, DefaultMode, nil, nil, nil},
		{"all allowed", `{"permission": "allow"}`, `permission "allow"`, nil, nil, nil},
		{"star allowed", `{"permission": {"*": "allow"}}`, `permission "allow"`, nil, nil, nil},
		{"all ask", `{"permission": "ask"}`, "", nil, []string{"bash"}, nil},
		{"bash allowed explicitly", `{"permission": {"*": "ask", "bash": "allow"}}`, "", []string{"bash"}, nil, nil},
		{"a later star overrides bash", `{"permission": {"bash": "allow", "*": "ask"}}`, "", nil, []string{"bash"}, nil},
		{"catch-all then exceptions", `{"permission": {"bash": {"*": "allow", "git push *": "ask"}}}`, "", []string{"bash"}, []string{"bash(git push *)"}, nil},
		{"later catch-all overrides exceptions", `{"permission": {"bash": {"git push *": "deny", "*": "allow"}}}`, "", []string{"bash"}, nil, nil},
		{"agent overrides global", `{"permission": {"bash": "ask"}, "agent": {"build": {"permission": {"bash": "allow"}}}}`, "", []string{"bash"}, nil, nil},
		{"default_agent picks the agent", `{"default_agent": "safe", "agent": {"build": {"permission": {"bash": "allow"}}, "safe": {"permission": {"bash": "deny"}}}}`, "", nil, nil, []string{"bash"}},
		{"legacy tools switch", `{"tools": {"bash": false}}`, "", nil, nil, []string{"bash"}},
		{"tools true leaves the permission", `{"permission": {"bash": "ask"}, "agent": {"build": {"tools": {"bash": true}}}}`, "", nil, []string{"bash"}, nil},
		{"specific rules only: default stands", `{"permission": {"bash": {"npm test": "allow"}}}`, DefaultMode, []string{"bash(npm test)"}, nil, nil},
		{"bare command covered by trailing space star", `{"permission": {"bash": {"*": "ask", "git push": "deny", "git push *": "allow"}}}`, "", []string{"bash(git push *)"}, nil, nil},
		// The last match wins: an ask for every command before an allow does
		// not hold the allow back; a deny after it does.
		{"ask all then allow", `{"permission": {"bash": {"*": "ask", "git push *": "allow", "find *": "allow", "find * -delete": "deny"}}}`, "", []string{"bash(git push *)", "bash(find *)"}, nil, []string{"bash(find * -delete)"}},
	}
	vals := func(ss []model.Str) []string {
		var out []string
		for _, s := range ss {
			if strings.HasPrefix(s.Value, "bash") {
				out = append(out, s.Value)
			}
		}
		return out
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := collect(t, "opencode.json", c.src)
			if err != nil {
				t.Fatal(err)
			}
			a := doc.Agents[0]
			mode := ""
			if a.ApprovalRaw != nil {
				mode = a.ApprovalRaw.Value
				if a.ApprovalMode == nil || a.ApprovalMode.Value != "bypass" {
					t.Errorf("approval mode = %+v", a.ApprovalMode)
				}
			}
			if mode != c.mode {
				t.Errorf("approval = %q, want %q", mode, c.mode)
			}
			if diff := cmp.Diff(c.allow, vals(a.Allow)); diff != "" {
				t.Errorf("allow (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.ask, vals(a.Ask)); diff != "" {
				t.Errorf("ask (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.deny, vals(a.Deny)); diff != "" {
				t.Errorf("deny (-want +got):\n%s", diff)
			}
		})
	}
}

// Edits go through unasked unless the last rule for every file (or for
// every permission) asks or denies, or a legacy switch removes the tool.
func TestEdits(t *testing.T) {
	for src, want := range map[string]bool{
		`{}`:                                true,
		`{"permission": {"edit": "allow"}}`: true,
		`{"permission": "ask"}`:             false,
		`{"permission": {"*": "ask"}}`:      false,
		`{"permission": {"edit": "deny"}}`:  false,
		`{"permission": {"edit": {"*": "ask", "docs/*.md": "allow"}}}`:                           false,
		`{"permission": {"edit": "ask"}, "agent": {"build": {"permission": {"edit": "allow"}}}}`: true,
		`{"tools": {"write": false}}`:                   false,
		`{"permission": {"*": "ask", "edit": "allow"}}`: true,
	} {
		doc, err := collect(t, "opencode.json", src)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, r := range doc.Agents[0].Allow {
			got = got || r.Value == "edit"
		}
		if got != want {
			t.Errorf("%s: edit allowed = %v, want %v", src, got, want)
		}
	}
}

// Reads outside the project and of .env files are asked and denied by
// default; a rule that, last to match, allows them adds an allow rule.
func TestReads(t *testing.T) {
	for src, want := range map[string]string{
		`{}`: "",
		`{"permission": {"external_directory": "allow"}}`:                           "external_directory",
		`{"permission": {"external_directory": {"*": "ask", "~/src/**": "allow"}}}`: "",
		`{"permission": {"read": {".env": "allow"}}}`:                               "read(.env)",
		`{"permission": {"read": {"*.env": "allow", "*.env": "deny"}}}`:             "",
		`{"permission": {"read": {"*": "allow"}}}`:                                  "read(*)",
		`{"permission": {"read": "ask", "*": "allow"}}`:                             "external_directory read(*)",
		`{"agent": {"build": {"permission": {"external_directory": "allow"}}}}`:     "external_directory",
	} {
		doc, err := collect(t, "opencode.json", src)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range doc.Agents[0].Allow {
			if r.Value == "external_directory" || strings.HasPrefix(r.Value, "read(") {
				got = append(got, r.Value)
			}
		}
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %q", src, got, want)
		}
	}
}

// Other agents with a permission of their own become profiles carrying
// their own rules; an agent that only inherits the global rules adds none.
func TestSubagents(t *testing.T) {
	doc, err := collect(t, "opencode.json", `{
  "permission": {"bash": {"*": "ask", "cat *": "allow"}},
  "agent": {
    "build": {"permission": {"bash": {"*": "ask", "git status *": "allow"}}},
    "coder": {"mode": "subagent", "permission": {"bash": "allow"}},
    "review": {"mode": "subagent", "permission": {"edit": "deny"}},
    "docs": {"description": "no permission of its own"},
    "": {"permission": {"bash": "allow"}}
  }
}`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range doc.Agents {
		var allow []string
		for _, r := range a.Allow {
			if strings.HasPrefix(r.Value, "bash") {
				allow = append(allow, r.Value)
			}
		}
		got = append(got, a.Profile+":"+strings.Join(allow, ","))
	}
	if diff := cmp.Diff([]string{":bash(git status *)", "coder:bash", `"":bash`}, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if doc.Agents[1].Line != 5 {
		t.Errorf("coder at line %d, want 5", doc.Agents[1].Line)
	}
}

func TestWildcard(t *testing.T) {
	for _, c := range []struct {
		p, s string
		want bool
	}{
		{"*", "anything at all", true},
		{"git *", "git push *", true},
		{"git *", "git", true},
		{"git push *", "git", false},
		{"git ?ush", "git push", true},
		{"* run *", "npm run", false},
		{"npm test", "npm test", true},
		{"npm test", "npm test --watch", false},
	} {
		if got := wildcard(c.p, c.s); got != c.want {
			t.Errorf("wildcard(%q, %q) = %v", c.p, c.s, got)
		}
	}
}

// A value of the wrong type is an error entry beside the facts read; the
// other entries are read all the same.
func TestBadEntries(t *testing.T) {
	doc, err := collect(t, "opencode.json", `{"permission": {"bash": 3}, "mcp": {"a": "x", "b": {"type": "local", "command": "npx server"}, "c": {"type": "local", "command": ["uvx", "mcp-server-git"]}}}`)
	if err == nil || !strings.Contains(err.Error(), "permission.bash is a number") {
		t.Errorf("err = %v", err)
	}
	if len(doc.Agents) != 1 || len(doc.MCPServers) != 2 {
		t.Errorf("agents %d, servers %+v", len(doc.Agents), doc.MCPServers)
	}
	if _, err := collect(t, "opencode.json", `[1]`); err == nil {
		t.Error("an array is not a config")
	}
	if _, err := collect(t, "opencode.json", `{"a": `); err == nil {
		t.Error("a truncated file parsed")
	}
}
