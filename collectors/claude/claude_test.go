package claude

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// fakePAT is the fixtures' token-shaped fake GitHub token.
const fakePAT = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"

func collectFixture(t *testing.T, dir string) (model.Document, string) {
	t.Helper()
	p := "fixtures/claude/" + dir + "/.claude/settings.json"
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
	s := func(v string, l int) model.Str { return model.Str{Value: v, Loc: at(l)} }
	b := func(v bool, l int) *model.Bool { return &model.Bool{Value: v, Loc: at(l)} }
	pat := secrets.DetectNamed("GITHUB_TOKEN", fakePAT)
	if pat == nil {
		t.Fatal("fake PAT not detected")
	}
	bypass, raw := s("bypass", 4), s("bypassPermissions", 4)
	want := []model.Agent{{
		Tool: "claude-code", Scope: "project", Loc: at(1),
		SandboxEnabled:   b(false, 12),
		AllowUnsandboxed: b(true, 13),
		AllowAllSockets:  b(true, 16),
		ApprovalMode:     &bypass,
		ApprovalRaw:      &raw,
		Allow:            []model.Str{s("Bash(git push:*)", 6), s("Bash(gh pr merge:*)", 7), s("Read(~/.aws/**)", 8)},
		Env: []model.EnvVar{
			{Name: "GITHUB_TOKEN", Secret: pat, SensitiveName: true, Loc: at(20)},
			{Name: "CLAUDE_CODE_MAX_OUTPUT_TOKENS", Loc: at(21)}, // 32000 is a setting, not a secret
		},
		EnableAllMCP: b(true, 23),
		UnknownKeys:  []model.Str{s("sandbox.network.allowedDomain", 15)},
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	wantCreds := []model.Credential{{SecretRef: *pat, Where: "env", Context: "claude-code settings env GITHUB_TOKEN", ReadableByAgent: true, Loc: at(20)}}
	if diff := cmp.Diff(wantCreds, doc.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

func TestHardenedFixture(t *testing.T) {
	doc, p := collectFixture(t, "hardened")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	s := func(v string, l int) model.Str { return model.Str{Value: v, Loc: at(l)} }
	b := func(v bool, l int) *model.Bool { return &model.Bool{Value: v, Loc: at(l)} }
	mode, helper := s("default", 4), s("/usr/local/bin/fetch-short-lived-key", 23)
	want := []model.Agent{{
		Tool: "claude-code", Scope: "project", Loc: at(1),
		SandboxEnabled:   b(true, 16),
		AllowUnsandboxed: b(false, 18),
		AllowedDomains:   []model.Str{s("github.com", 20), s("registry.npmjs.org", 20)},
		ApprovalMode:     &mode,
		ApprovalRaw:      &mode,
		BypassDisabled:   b(true, 5),
		Allow:            []model.Str{s("Bash(npm run test:*)", 6), s("Bash(go test:*)", 6)},
		Ask:              []model.Str{s("Bash(git commit:*)", 7)},
		Deny:             []model.Str{s("Bash(git push:*)", 9), s("Bash(gh pr merge:*)", 10), s("Read(~/.aws/**)", 11), s("Read(./.env)", 12)},
		APIKeyHelper:     &helper,
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("credentials = %v, want none", doc.Credentials)
	}
}

func TestMatchAndScope(t *testing.T) {
	tests := []struct {
		path  string
		match bool
		scope string
	}{
		{".claude/settings.json", true, "project"},
		{"svc/.claude/settings.local.json", true, "local"},
		{"home/alice/.claude/settings.json", true, "user"},
		{"root/.claude/settings.json", true, "user"},
		{"home/alice/.config/claude/settings.json", true, "user"},
		{"etc/claude-code/managed-settings.json", true, "managed"},
		{".devcontainer/claude-managed-settings.json", true, "managed"},
		{"policy/claude-code.managed-settings.json", true, "managed"},
		{".devcontainer/vscode-managed-settings.json", false, ""},
		{".devcontainer/claudemanaged-settings.json", false, ""},
		{"claude/settings.json", false, ""},
		{".claude/agents.json", false, ""},
		{".vscode/settings.json", false, ""},
	}
	for _, tt := range tests {
		if got := New().Match(tt.path); got != tt.match {
			t.Errorf("Match(%q) = %v, want %v", tt.path, got, tt.match)
		}
		if tt.match && scope(tt.path) != tt.scope {
			t.Errorf("scope(%q) = %q, want %q", tt.path, scope(tt.path), tt.scope)
		}
	}
}

func collect(t *testing.T, src string) (model.Agent, model.Document, error) {
	t.Helper()
	var doc model.Document
	err := New().Collect(context.Background(), ".claude/settings.json", []byte(src), &doc)
	if len(doc.Agents) != 1 {
		return model.Agent{}, doc, err
	}
	return doc.Agents[0], doc, err
}

func TestApprovalModes(t *testing.T) {
	for raw, want := range map[string]string{
		"bypassPermissions": "bypass", "acceptEdits": "auto", "auto": "auto", "dontAsk": "auto",
		"plan": "plan", "default": "default", "yolo": "",
	} {
		a, _, err := collect(t, `{"permissions": {"defaultMode": "`+raw+`"}}`)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if a.ApprovalMode != nil {
			got = a.ApprovalMode.Value
		}
		if got != want || a.ApprovalRaw == nil || a.ApprovalRaw.Value != raw {
			t.Errorf("defaultMode %q: mode %q raw %v, want %q", raw, got, a.ApprovalRaw, want)
		}
	}
}

func TestUnknownKeys(t *testing.T) {
	src := "{\n \"sandbox\": {\"enable\": true,\n  \"filesystem\": {\"denyread\": []}},\n \"permisions\": {},\n \"hooks\": {},\n \"permissions\": {\"defaultmode\": \"plan\"}\n}"
	a, _, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range a.UnknownKeys {
		got = append(got, k.Value+"@"+string(rune('0'+k.Line)))
	}
	want := []string{"sandbox.enable@2", "sandbox.filesystem.denyread@3", "permisions@4", "permissions.defaultmode@6"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unknown keys (-want +got):\n%s", diff)
	}
	if a.SandboxEnabled != nil {
		t.Errorf("sandbox.enable must not count as enabled: %v", a.SandboxEnabled)
	}
}

// TestTopLevelKeysOfOthers: a top-level key that is no misspelt setting
// and names no protection (a team's own section) is not reported; one that
// is, is.
func TestTopLevelKeysOfOthers(t *testing.T) {
	src := "{\n \"search\": {\"engine\": \"x\"},\n \"myTeamConfig\": 1,\n \"Sandbox\": {},\n \"denyList\": [],\n \"modle\": \"x\",\n \"hooks\": {}\n}"
	a, _, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range a.UnknownKeys {
		got = append(got, k.Value)
	}
	if diff := cmp.Diff([]string{"Sandbox", "denyList", "modle"}, got); diff != "" {
		t.Errorf("unknown keys (-want +got):\n%s", diff)
	}
}

func TestWrongTypeKeepsFacts(t *testing.T) {
	a, _, err := collect(t, "{\"permissions\": {\"defaultMode\": \"plan\"},\n \"sandbox\": {\"enabled\": \"true\"}}")
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(pe.Error(), "enabled: want a boolean, got string") {
		t.Fatalf("err = %v, want a ParseError at line 2 about enabled", err)
	}
	if a.ApprovalMode == nil || a.ApprovalMode.Value != "plan" || a.SandboxEnabled != nil {
		t.Errorf("agent = %+v, want plan mode kept and no sandbox fact", a)
	}
}

func TestAPIKeyHelperRedacted(t *testing.T) {
	a, doc, err := collect(t, `{"apiKeyHelper": "echo `+fakePAT+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.APIKeyHelper.Value, fakePAT) || len(doc.Credentials) != 1 || doc.Credentials[0].Where != "settings" {
		t.Errorf("helper %q, credentials %+v: want the token redacted and reported", a.APIKeyHelper.Value, doc.Credentials)
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
	}{
		{"syntax", "{\n  \"permissions\": {\n    \"allow\": [\"x\" \"y\"]\n  }\n}", 3},
		{"truncated", "{\"sandbox\": {", 1},
		{"binary", "\x00\xff\xfe{", 1},
		{"deep", strings.Repeat("[", 1_000_000), 1},
		{"not an object", "\n[1, 2]", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, doc, err := collect(t, tt.src)
			var pe *collectors.ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line {
				t.Fatalf("err = %v, want a ParseError at line %d", err, tt.line)
			}
			if len(doc.Agents) != 0 || time.Since(start) > time.Second {
				t.Errorf("agents=%d took=%v", len(doc.Agents), time.Since(start))
			}
		})
	}
}

// TestScanFixtures runs the collector through the real directory scan.
func TestScanFixtures(t *testing.T) {
	doc, errs, err := collectors.Scan(context.Background(), "../../fixtures/claude", collectors.Options{Collectors: []collectors.Collector{New()}})
	if err != nil || len(errs) != 0 {
		t.Fatalf("Scan = %v, %v", err, errs)
	}
	var got []string
	for _, a := range doc.Agents {
		got = append(got, a.File+" "+a.Scope)
	}
	want := []string{"hardened/.claude/settings.json project", "insecure/.claude/settings.json project"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
}

// A file that leaves the sandbox alone speaks for review only: the
// agent's network is where it runs, not in the file.
func TestSpeaks(t *testing.T) {
	for src, want := range map[string][]string{
		`{"permissions": {"allow": ["Bash(npm test)"]}}`: {"review"},
		`{"hooks": {}}`:                   {"review"},
		`{"sandbox": {"enabled": false}}`: nil,
		`{"sandbox": {"network": {"allowedDomains": ["x.example"]}}}`: nil,
	} {
		a, _, err := collect(t, src)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Speaks, want) {
			t.Errorf("%s: speaks %v, want %v", src, a.Speaks, want)
		}
	}
}
