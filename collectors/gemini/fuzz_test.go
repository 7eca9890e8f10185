package gemini

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
)

// fuzzSeeds are settings.json files shaped like real ones: the nested and
// the older flat format, trusted and untrusted MCP servers, and the
// degenerate server entries that once panicked (a blank command).
var fuzzSeeds = []string{
	`{
  "general": {"defaultApprovalMode": "auto_edit", "vimMode": true},
  "tools": {"sandbox": "docker", "exclude": ["run_shell_command(rm)"]},
  "security": {"disableYoloMode": true, "auth": {"selectedType": "oauth-personal"}},
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "$GITHUB_TOKEN"},
      "trust": false,
      "timeout": 30000
    },
    "search": {"httpUrl": "https://search.mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${SEARCH_TOKEN}"}}
  }
}
`,
	`{"sandbox": "sandbox-exec", "autoAccept": true, "theme": "GitHub", "mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "trust": true, "cwd": "./tools"}}}`,
	`{"yolo": true, "tools": {"sandbox": {"command": "podman", "image": "gemini-sandbox:latest"}}, "mcpServers": {"sse": {"url": "http://10.1.2.3:9000/sse", "type": "sse"}}}`,
	`{"general": {"defaultApprovalMode": "yolo"}, "mcpServers": {"blank": {"command": " "}, "tab": {"command": "\t", "args": []}, "cmd": {"command": "cmd", "args": ["/c", " "]}}}`,
	`{"mcpServers": {"n": {"command": null, "args": [null, 1, {}], "env": {"A": [1]}, "headers": []}, "x": null, "y": 1}}`,
	`{"tools":{"sandbox":"docker"},"mcpServers":{"a":{"command":"npx","args":["-y","x@1.0.0"],"env":{"T":"$X"},"trust":true}}}`,
	`{"mcpServers":{"b":{"url":"http://u:p@h/x?k=v","headers":{"Authorization":"Bearer x"}}}}`,
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/gemini/*/.gemini/settings.json"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), ".gemini/settings.json", data, fuzzcheck.Options{})
		// A file that does not parse adds nothing; a bad MCP entry of one
		// that does comes back beside the settings' facts.
		if root, perr := jsonpos.Parse(data); perr != nil || root.Kind != jsonpos.Object {
			if err == nil || len(doc.Agents) != 0 {
				t.Fatalf("err = %v with %d agents from a file that is not a settings object", err, len(doc.Agents))
			}
			return
		}
		if len(doc.Agents) != 1 {
			t.Fatalf("%d agents from one settings file", len(doc.Agents))
		}
		for _, m := range doc.MCPServers {
			if m.Config != "gemini" {
				t.Fatalf("inconsistent server %+v", m)
			}
		}
	})
}

// FuzzCollectQwen reads the same inputs as Qwen Code settings, whose
// permission rules and env the collector reads as well.
func FuzzCollectQwen(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/qwen/*/.qwen/settings.json"}, append(fuzzSeeds,
		`{"tools": {"approvalMode": "auto-edit"}, "permissions": {"allow": ["Bash(git *)", 1, null], "deny": "x"}, "env": {"K": "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr", "N": 3}}`,
		`{"permissions": null, "env": [], "tools": {"approvalMode": ["yolo"]}}`)...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), ".qwen/settings.json", data, fuzzcheck.Options{})
		if root, perr := jsonpos.Parse(data); perr != nil || root.Kind != jsonpos.Object {
			if err == nil || len(doc.Agents) != 0 {
				t.Fatalf("err = %v with %d agents from a file that is not a settings object", err, len(doc.Agents))
			}
			return
		}
		if len(doc.Agents) != 1 || doc.Agents[0].Tool != "qwen" {
			t.Fatalf("agents %+v from one qwen settings file", doc.Agents)
		}
	})
}
