package codex

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Token-shaped fake values of the fixtures.
const (
	fakePAT    = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"
	fakeOpenAI = "sk-proj-Z3aWZkSBvrjn9Wvgfygw2wMqZcUDIh7yfJs1ON43"
)

func collectFixture(t *testing.T, dir string) (model.Document, string) {
	t.Helper()
	p := "fixtures/codex/" + dir + "/.codex/config.toml"
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
		Tool: "codex", Scope: "project", Loc: at(1),
		SandboxMode: s("danger-full-access", 4), SandboxEnabled: b(false, 4),
		ApprovalRaw: s("never", 5), ApprovalMode: s("bypass", 5),
		EnvInheritAll: b(true, 8), EnvIgnoreExcludes: b(true, 9),
		HistoryPersist: s("save-all", 12),
	}, {
		Tool: "codex", Scope: "project", Profile: "fast", Loc: at(27),
		SandboxMode: s("workspace-write", 28), SandboxEnabled: b(true, 28),
		NetworkAccess: b(true, 30),
		ApprovalRaw:   s("on-request", 29), ApprovalMode: s("ask", 29),
		EnvInheritAll: b(true, 8), EnvIgnoreExcludes: b(true, 9),
		HistoryPersist: s("save-all", 12),
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	bearer := secrets.Detect(fakeOpenAI)
	if bearer == nil {
		bearer = &model.SecretRef{Kind: "bearer-token", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(fakeOpenAI)}
	}
	pat := secrets.DetectNamed("GITHUB_PERSONAL_ACCESS_TOKEN", fakePAT)
	wantCreds := []model.Credential{
		{SecretRef: *bearer, Where: "settings", Context: "codex model provider proxy experimental_bearer_token", ReadableByAgent: true, Loc: at(17)},
		{SecretRef: *pat, Where: "env", Context: "codex MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN", ReadableByAgent: true, Loc: at(22)},
	}
	if diff := cmp.Diff(wantCreds, doc.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
	wantMCP := []model.MCPServer{{
		Name: "github", Config: "codex", Transport: "stdio", Loc: at(19),
		Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
		Launcher: "npx", Package: "@modelcontextprotocol/server-github",
		Env: []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", Secret: pat, SensitiveName: true, Loc: at(22)}},
	}, {
		Name: "docs", Config: "codex", Transport: "http", Loc: at(24),
		URL: "http://docs.internal.example:8080/mcp", PlainHTTP: true,
	}}
	if diff := cmp.Diff(wantMCP, doc.MCPServers); diff != "" {
		t.Errorf("mcp servers (-want +got):\n%s", diff)
	}
}

func TestHardenedFixture(t *testing.T) {
	doc, p := collectFixture(t, "hardened")
	at := func(l int) model.Loc { return model.Loc{File: p, Line: l} }
	s := func(v string, l int) *model.Str { return &model.Str{Value: v, Loc: at(l)} }
	b := func(v bool, l int) *model.Bool { return &model.Bool{Value: v, Loc: at(l)} }
	want := []model.Agent{{
		Tool: "codex", Scope: "project", Loc: at(1),
		SandboxMode: s("workspace-write", 1), SandboxEnabled: b(true, 1), NetworkAccess: b(false, 5),
		ApprovalRaw: s("on-request", 2), ApprovalMode: s("ask", 2),
		EnvInheritAll: b(false, 8), HistoryPersist: s("none", 12),
	}, {
		Tool: "codex", Scope: "project", Profile: "review", Loc: at(19),
		SandboxMode: s("read-only", 20), SandboxEnabled: b(true, 20), NetworkAccess: b(false, 5),
		ApprovalRaw: s("on-request", 2), ApprovalMode: s("ask", 2),
		EnvInheritAll: b(false, 8), HistoryPersist: s("none", 12),
	}}
	if diff := cmp.Diff(want, doc.Agents); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("credentials = %v, want none", doc.Credentials)
	}
	wantMCP := []model.MCPServer{{
		Name: "github", Config: "codex", Transport: "stdio", Loc: at(14),
		Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github@2025.4.8"},
		Launcher: "npx", Package: "@modelcontextprotocol/server-github", Version: "2025.4.8", Pinned: true,
		Env: []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", FromHost: "GITHUB_PERSONAL_ACCESS_TOKEN", SensitiveName: true, Loc: at(17)}},
	}}
	if diff := cmp.Diff(wantMCP, doc.MCPServers); diff != "" {
		t.Errorf("mcp servers (-want +got):\n%s", diff)
	}
}

func TestMatchAndScope(t *testing.T) {
	tests := []struct {
		path  string
		match bool
		scope string
	}{
		{".codex/config.toml", true, "project"},
		{"svc/.codex/config.toml", true, "project"},
		{"home/dev/.codex/config.toml", true, "user"},
		{"root/.codex/config.toml", true, "user"},
		{"etc/codex/config.toml", true, "managed"},
		{"etc/codex/managed_config.toml", true, "managed"},
		{".devcontainer/codex-managed-config.toml", true, "managed"},
		{".devcontainer/app-managed-config.toml", false, ""},
		{".github/codex/home/config.toml", true, "project"},
		{"home/config.toml", false, ""},
		{"config.toml", false, ""},
		{".codex/requirements.toml", false, ""},
		{"app/config.toml", false, ""},
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

func collect(t *testing.T, src string) (model.Document, error) {
	t.Helper()
	var doc model.Document
	err := New().Collect(context.Background(), ".codex/config.toml", []byte(src), &doc)
	return doc, err
}

func TestProfilesAndKeys(t *testing.T) {
	src := "approval_policy = { granular = { sandbox = true } }\n" +
		"[shell_environment_policy.set]\nAPI_TOKEN = \"" + fakePAT + "\"\nMODE = \"ci\"\n" +
		"[profiles.\"a.b\"]\nsandbox_mode = \"danger-full-access\"\n" +
		"[profiles.ci.shell_environment_policy]\ninherit = \"none\"\n"
	doc, err := collect(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range doc.Agents {
		line := 0
		if a.SandboxMode != nil {
			line = a.SandboxMode.Line
		}
		got = append(got, a.Profile+"|"+a.ApprovalRaw.Value+"|"+strings.Join([]string{strconv.Itoa(line), strconv.Itoa(len(a.Env))}, "|"))
	}
	want := []string{"|granular|0|2", "a.b|granular|6|2", "ci|granular|0|2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
	if ci := doc.Agents[2]; ci.EnvInheritAll == nil || ci.EnvInheritAll.Value || ci.EnvInheritAll.Line != 8 {
		t.Errorf("ci inherit = %+v, want false at line 8", ci.EnvInheritAll)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Line != 3 || doc.Credentials[0].Where != "settings" {
		t.Errorf("credentials = %+v, want API_TOKEN at line 3", doc.Credentials)
	}
}

func TestDisabledServerStillReportsSecrets(t *testing.T) {
	doc, err := collect(t, "[mcp_servers.x]\ncommand = \"srv\"\nenabled = false\nhttp_headers = { Authorization = \"Bearer "+fakePAT+"\" }\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.MCPServers) != 0 || len(doc.Credentials) != 1 || doc.Credentials[0].Where != "header" || doc.Credentials[0].Line != 4 {
		t.Errorf("servers=%v credentials=%+v", doc.MCPServers, doc.Credentials)
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
	}{
		{"syntax", "a = 1\nb = \n", 2},
		{"duplicate key", "sandbox_mode = \"a\"\nsandbox_mode = \"b\"\n", 2},
		{"table redefined", "[history]\n[history]\n", 2},
		{"binary", "\x00\x01\x02", 1},
		{"deep arrays", "a = " + strings.Repeat("[", 200_000), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			doc, err := collect(t, tt.src)
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
	doc, errs, err := collectors.Scan(context.Background(), "../../fixtures/codex", collectors.Options{Collectors: []collectors.Collector{New()}})
	if err != nil || len(errs) != 0 {
		t.Fatalf("Scan = %v, %v", err, errs)
	}
	var got []string
	for _, a := range doc.Agents {
		got = append(got, a.File+" "+a.Profile)
	}
	want := []string{"hardened/.codex/config.toml ", "hardened/.codex/config.toml review", "insecure/.codex/config.toml ", "insecure/.codex/config.toml fast"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
}

func TestServerHeaders(t *testing.T) {
	doc, err := collect(t, "[mcp_servers.api]\nurl = \"https://mcp.example.com/mcp\"\nhttp_headers = { Authorization = \"Bearer opaque-literal-value-123\", Accept = \"application/json\" }\nenv_http_headers = { \"X-Api-Key\" = \"API_KEY\" }\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.MCPServers) != 1 {
		t.Fatalf("servers = %+v", doc.MCPServers)
	}
	var got []string
	for _, h := range doc.MCPServers[0].Headers {
		kind := ""
		if h.Secret != nil {
			kind = h.Secret.Kind
		}
		got = append(got, h.Name+"|"+kind+"|"+h.FromHost)
	}
	want := []string{"Accept||", "Authorization|bearer-token|", "X-Api-Key||API_KEY"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Where != "header" {
		t.Errorf("credentials = %+v, want the literal Authorization only", doc.Credentials)
	}
}

// TestEnvKeyHoldingTheKey: env_key names a variable; a key written there
// instead (cr_<hex>, sk-…) is a literal credential in the file, and a
// variable's name is not.
func TestEnvKeyHoldingTheKey(t *testing.T) {
	const key = "cr_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a"
	src := "[model_providers.relay]\nbase_url = \"http://relay.example/openai\"\nenv_key = \"" + key + "\"\n\n[model_providers.azure]\nenv_key = \"AZURE_OPENAI_API_KEY\"\n"
	var doc model.Document
	if err := New().Collect(context.Background(), ".codex/config.toml", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Line != 3 || !strings.Contains(doc.Credentials[0].Context, "relay env_key") {
		t.Fatalf("credentials = %+v, want the relay's env_key", doc.Credentials)
	}
	if b, _ := json.Marshal(doc); strings.Contains(string(b), key) {
		t.Error("the key is kept in the document")
	}
}
