package codex

import (
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
)

// fuzzSeeds are config.toml files shaped like real ones: profiles over a
// top level, MCP servers local and remote, providers with headers, and the
// degenerate server entries that once panicked (a blank command).
var fuzzSeeds = []string{
	`model = "o4-mini"
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[sandbox_workspace_write]
network_access = false
writable_roots = ["/tmp/build"]

[shell_environment_policy]
inherit = "core"
ignore_default_excludes = false
set = { CI = "1", PATH_EXTRA = "/opt/bin" }

[history]
persistence = "none"

[profiles.ci]
approval_policy = "never"
sandbox_mode = "danger-full-access"

[profiles."review.strict"]
approval_policy = "untrusted"
`,
	`[mcp_servers.github]
command = "docker"
args = ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server:v0.9.0"]
env_vars = ["GITHUB_PERSONAL_ACCESS_TOKEN"]

[mcp_servers.docs]
url = "https://docs.mcp.example.com/mcp"
bearer_token = "${DOCS_TOKEN}"
http_headers = { "X-Team" = "platform" }

[mcp_servers.old]
command = "uvx"
args = ["legacy-mcp"]
enabled = false

[model_providers.proxy]
name = "Corp proxy"
base_url = "https://llm-proxy.corp.example/v1"
env_key = "PROXY_API_KEY"
http_headers = { "X-Org" = "eng" }
`,
	"[mcp_servers.blank]\ncommand = \" \"\n\n[profiles.yolo]\nsandbox_mode = \"danger-full-access\"\napproval_policy = \"never\"\n",
	"mcp_servers.a.command = \"\\t\"\nmcp_servers.b = { command = \"cmd\", args = [\"/c\", \" \"] }\nmcp_servers.c.args = [\"--\", 1, [\"x\"]]\nmcp_servers.d.env = [\"A\"]\n",
	"sandbox_mode = \"danger-full-access\"\n[profiles.x]\napproval_policy = \"never\"\n",
	"[mcp_servers.a]\ncommand = \"npx\"\nargs = [\"-y\", \"p@1.0.0\"]\nenv = { K = \"v\" }\n",
	"a.b.\"c.d\" = { e = [1, { f = 2 }] }\n[[arr]]\nx = 1\n",
	"approval_policy = { granular = { sandbox = true } }\n[profiles.p]\nshell_environment_policy.set.TOKEN = \"x\"\n",
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/codex/*/.codex/config.toml"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), ".codex/config.toml", data, fuzzcheck.Options{})
		// A file that does not parse adds nothing; a bad MCP entry of one
		// that does comes back beside every other fact.
		var root map[string]any
		if toml.Unmarshal(data, &root) != nil {
			if err == nil || len(doc.Agents) != 0 {
				t.Fatalf("err = %v with %d agents from a file that does not parse", err, len(doc.Agents))
			}
			return
		}
		if len(doc.Agents) == 0 || doc.Agents[0].Profile != "" {
			t.Fatalf("a parsed file must give the top-level agent first: %+v", doc.Agents)
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" {
				t.Fatalf("credential without fingerprint: %+v", c)
			}
		}
	})
}
