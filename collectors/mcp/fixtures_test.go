package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Fake tokens of the insecure fixtures, shaped like real ones.
var fixtureTokens = []string{
	"ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d", "sk-wkNhFdnXsiVpzz63FfkCzJr4i0B3JrTAwR4y9ojf",
	"ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR", "Vb7kQ2xR9mW4pZ8tL3nY",
	"sk-proj-FAc9QeWJKY40uvSwMFLZDe1f8rESQedUStPKR0CsTy4Qwb8D", "gho_ljoQoaF1LlqsajAIxNKu8iS2G8NPRVdD53X8",
	"hunter2-but-longer",
}

func collectFixture(t *testing.T, rel string) *model.Document {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "mcp", rel))
	if err != nil {
		t.Fatal(err)
	}
	doc := &model.Document{}
	if err := (Collector{}).Collect(context.Background(), rel, data, doc); err != nil {
		t.Fatalf("Collect(%s): %v", rel, err)
	}
	return doc
}

func ref(t *testing.T, name, value string) model.SecretRef {
	t.Helper()
	r := secrets.DetectNamed(name, value)
	if r == nil {
		t.Fatalf("secrets.DetectNamed(%s, …) recognises nothing", name)
	}
	return *r
}

func TestInsecureFixture(t *testing.T) {
	const f = "insecure/.mcp.json"
	doc := collectFixture(t, f)
	at := func(line int) model.Loc { return model.Loc{File: f, Line: line} }
	pat := ref(t, "", fixtureTokens[0])
	sk := ref(t, "", fixtureTokens[1])
	pat2 := ref(t, "", fixtureTokens[2])
	query := ref(t, "api_key", fixtureTokens[3])
	bearer := ref(t, "", fixtureTokens[4])
	want := []model.MCPServer{
		{Name: "github", Config: "mcp.json", Transport: "stdio", Loc: at(3), Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-github"}, Launcher: "npx", Package: "@modelcontextprotocol/server-github",
			Env: []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", Secret: &pat, SensitiveName: true, Loc: at(7)}}},
		{Name: "openai-tools", Config: "mcp.json", Transport: "stdio", Loc: at(10), Command: "uvx",
			Args:     []string{"mcp-openai@latest", "--api-key", marker(&sk)},
			Launcher: "uvx", Package: "mcp-openai", Version: "latest"},
		{Name: "github-docker", Config: "mcp.json", Transport: "stdio", Loc: at(14), Command: "docker",
			Args:     []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=" + marker(&pat2), "ghcr.io/github/github-mcp-server:latest"},
			Launcher: "docker", Package: "ghcr.io/github/github-mcp-server", Version: "latest"},
		{Name: "search", Config: "mcp.json", Transport: "http", Loc: at(18), Args: []string{},
			URL: "http://mcp.search.example.com/mcp?api_key=" + marker(&query), PlainHTTP: true,
			Headers: []model.EnvVar{{Name: "Authorization", Secret: &bearer, SensitiveName: true, Loc: at(22)}}},
	}
	if diff := cmp.Diff(want, doc.MCPServers); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	cred := func(r model.SecretRef, where, ctx string, line int) model.Credential {
		return model.Credential{SecretRef: r, Where: where, Context: ctx, ReadableByAgent: true, Loc: at(line)}
	}
	wantCreds := []model.Credential{
		cred(pat, "env", "MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN", 7),
		cred(sk, "arg", "MCP server openai-tools arg api-key", 12),
		cred(pat2, "arg", "MCP server github-docker arg GITHUB_PERSONAL_ACCESS_TOKEN", 16),
		cred(query, "url", "MCP server search url api_key", 20),
		cred(bearer, "header", "MCP server search header Authorization", 22),
	}
	if diff := cmp.Diff(wantCreds, doc.Credentials); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
}

func TestVSCodeFixtures(t *testing.T) {
	const f = "insecure/.vscode/mcp.json"
	doc := collectFixture(t, f)
	at := func(line int) model.Loc { return model.Loc{File: f, Line: line} }
	gho := ref(t, "", fixtureTokens[5])
	pw := model.SecretRef{Kind: "url-password", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(fixtureTokens[6])}
	want := []model.MCPServer{
		{Name: "everything", Config: "vscode", Transport: "stdio", Loc: at(5), Command: "pnpm",
			Args:     []string{"dlx", "@example/mcp-everything@^1.2.0", "--token=" + marker(&gho)},
			Launcher: "pnpm", Package: "@example/mcp-everything", Version: "^1.2.0", AllTools: true},
		{Name: "legacy-sse", Config: "vscode", Transport: "sse", Loc: at(11), Args: []string{},
			URL: "https://agent:" + marker(&pw) + "@mcp.example.com/sse"},
	}
	if diff := cmp.Diff(want, doc.MCPServers); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 2 || doc.Credentials[0].Loc != at(8) || doc.Credentials[1].Where != "url" {
		t.Errorf("credentials = %+v", doc.Credentials)
	}

	const h = "hardened/.vscode/mcp.json"
	doc = collectFixture(t, h)
	wantH := []model.MCPServer{
		{Name: "github", Config: "vscode", Transport: "http", Loc: model.Loc{File: h, Line: 7}, Args: []string{},
			URL: "https://api.githubcopilot.com/mcp/",
			// A VS Code input: prompted for, not written in the file.
			Headers: []model.EnvVar{{Name: "Authorization", FromHost: "input:github-token", SensitiveName: true, Loc: model.Loc{File: h, Line: 10}}}},
		{Name: "local-tools", Config: "vscode", Transport: "stdio", Loc: model.Loc{File: h, Line: 12},
			Command: "${workspaceFolder}/tools/mcp-server", Args: []string{"--root", "${workspaceFolder}"}, Pinned: true,
			EnvFile: &model.Str{Value: "${workspaceFolder}/.env.mcp", Loc: model.Loc{File: h, Line: 15}}},
	}
	if diff := cmp.Diff(wantH, doc.MCPServers); diff != "" {
		t.Errorf("hardened servers (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("hardened VS Code config has credentials: %+v", doc.Credentials)
	}
}

func TestHardenedFixture(t *testing.T) {
	const f = "hardened/.mcp.json"
	doc := collectFixture(t, f)
	type summary struct {
		Name, Launcher, Package, Version string
		Pinned                           bool
		Env                              []model.EnvVar
	}
	env := func(line int) []model.EnvVar {
		return []model.EnvVar{{Name: "GITHUB_PERSONAL_ACCESS_TOKEN", FromHost: "GITHUB_MCP_TOKEN", SensitiveName: true, Loc: model.Loc{File: f, Line: line}}}
	}
	want := []summary{
		{"github", "npx", "@modelcontextprotocol/server-github", "2025.4.8", true, env(7)},
		{"github-docker", "docker", "ghcr.io/github/github-mcp-server", "sha256:0f2e1d5a4b3c6e8f7a9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f", true, env(17)},
		{"fetch", "uvx", "mcp-server-fetch", "2025.4.7", true, nil},
		{"docs", "", "", "", false, nil},
	}
	var got []summary
	for _, s := range doc.MCPServers {
		got = append(got, summary{s.Name, s.Launcher, s.Package, s.Version, s.Pinned, s.Env})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("hardened config has credentials: %+v", doc.Credentials)
	}
}

func TestNoSecretInModel(t *testing.T) {
	for _, rel := range []string{"insecure/.mcp.json", "insecure/.vscode/mcp.json"} {
		b, err := json.Marshal(collectFixture(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range fixtureTokens {
			if strings.Contains(string(b), s) {
				t.Errorf("%s: the document holds the secret %s…", rel, s[:6])
			}
		}
	}
}
