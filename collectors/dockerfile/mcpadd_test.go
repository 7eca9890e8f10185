package dockerfile

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestMCPAdd: servers a RUN registers with claude, codex or gemini mcp add
// are read like a settings file's, with what their launch pins, each on
// the line of its own mcp add.
func TestMCPAdd(t *testing.T) {
	src := `FROM node:22
RUN CFG=/x claude mcp add --scope user docs -- \
    uvx --from git+https://example.com/docs-mcp docs-mcp serve && \
    claude mcp add -s user -e API_KEY=${KEY} ctx -- npx -y @acme/ctx-mcp@latest && \
    claude mcp add --transport http remote https://mcp.example.com/v1 && \
    codex mcp add pinned -- npx -y @acme/pinned-mcp@1.2.3
RUN gemini mcp add local node ./server.js --port 3 && claude mcp list && claude mcp add
`
	var doc model.Document
	if err := New().Collect(context.Background(), "Dockerfile", []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	type view struct {
		Name, Config, Transport, Command, URL, Launcher, Package, Version string
		Pinned                                                            bool
		Env, Line                                                         int
	}
	var got []view
	for _, s := range doc.MCPServers {
		got = append(got, view{s.Name, s.Config, s.Transport, s.Command, s.URL, s.Launcher, s.Package, s.Version, s.Pinned, len(s.Env), s.Line})
	}
	want := []view{
		{"docs", "claude mcp add", "stdio", "uvx", "", "uvx", "git+https://example.com/docs-mcp", "", false, 0, 2},
		{"ctx", "claude mcp add", "stdio", "npx", "", "npx", "@acme/ctx-mcp", "latest", false, 1, 4},
		{"remote", "claude mcp add", "http", "", "https://mcp.example.com/v1", "", "", "", false, 0, 5},
		{"pinned", "codex mcp add", "stdio", "npx", "", "npx", "@acme/pinned-mcp", "1.2.3", true, 0, 6},
		{"local", "gemini mcp add", "stdio", "node", "", "", "", "", true, 0, 7}, // a script of the image
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MCP servers (-want +got):\n%s", diff)
	}
}
