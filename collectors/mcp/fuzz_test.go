package mcp

import (
	"strings"
	"testing"
	"unicode"
)

// fuzzSeeds are MCP configurations shaped like the ones projects commit:
// Claude Code's .mcp.json, VS Code's servers with inputs, Claude Desktop's
// Windows launchers, remote servers, and the degenerate entries that once
// panicked (a blank command).
var fuzzSeeds = []string{
	`{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.7.1", "/home/dev/src"]
    },
    "postgres": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "DATABASE_URL", "mcp/postgres@sha256:` + strings.Repeat("ab", 32) + `"],
      "env": {"DATABASE_URL": "${DATABASE_URL}"}
    },
    "sentry": {"type": "http", "url": "https://mcp.sentry.example/mcp", "headers": {"Authorization": "Bearer ${SENTRY_TOKEN}"}}
  }
}
`,
	`{
  // VS Code: inputs prompt once and are kept in the user's secret storage.
  "inputs": [{"type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true}],
  "servers": {
    "github": {
      "type": "stdio",
      "command": "uvx",
      "args": ["--from", "git+https://github.com/example/gh-mcp@0123456789abcdef0123456789abcdef01234567", "gh-mcp"],
      "env": {"GITHUB_TOKEN": "${input:gh-token}", "LOG_LEVEL": 2},
      "envFile": "${workspaceFolder}/.env",
    },
    "docs": {"type": "sse", "url": "http://docs.internal.example:8080/sse?team=${env:TEAM}"},
  },
}
`,
	`{"mcpServers": {"fetch": {"command": "cmd", "args": ["/c", "uvx", "mcp-server-fetch==2025.4.7"]}, "local": {"command": "C:\\tools\\mcp.exe", "args": []}}}`,
	`{"mcpServers": {"blank": {"command": " "}, "tab": {"command": "\t", "args": ["--"]}, "quotes": {"command": "\"\""}, "cmd": {"command": "cmd", "args": ["/c", " "]}}}`,
	`{"mcpServers": {"n": {"command": null, "args": [null, 1, true, {}], "env": [], "headers": "x"}}, "servers": null}`,
	`{"servers": {"a": {"command": "docker", "args": ["run", "-e", "K=V", "--header", "Authorization: x", "img@sha256:"]}}}`,
	`{"mcpServers": {"a": {"url": "http://u:p@h/?k=${input:x}&t=v#f", "headers": {"Authorization": "Bearer ${X:-y}"}}}}`,
}

// FuzzParseLaunch: any command line parses without panicking; a blank one
// launches nothing; a launcher is named only with what it fetches; and a
// whole line in "command" reads as the same line split into args.
func FuzzParseLaunch(f *testing.F) {
	for _, s := range []string{
		"npx -y @modelcontextprotocol/server-github@1.2.3", "npx -p @scope/pkg@2.0.0 bin --flag", "pnpm dlx create-mcp@latest",
		"uvx --python 3.12 --from mcp-tool[cli]==0.4.1 mcp-tool serve", "pipx run --spec mcp-x==1.0 mcp-x", "uv tool run mcp-y>=2",
		"docker run -i --rm -e TOKEN ghcr.io/example/mcp:1.4", "podman container run --pull=always registry:5000/mcp@sha256:" + strings.Repeat("0", 64),
		"cmd /c npx -y pkg", "npx.cmd github:owner/repo#" + strings.Repeat("a", 40), "bun x pkg", "npm exec -- pkg@1.0.0",
		"/usr/local/bin/server --stdio", " ", "\t", `""`, "--", "cmd /c  ", "npx --", "docker run", "uvx --from",
	} {
		f.Add(s, "\x00")
	}
	f.Add("npx", "-y\x00pkg@1.0.0")
	f.Add("cmd", "/c\x00 \x00")
	f.Add(" ", "-y\x00pkg")
	f.Fuzz(func(t *testing.T, command, joined string) {
		var args []string
		if joined != "\x00" {
			args = strings.Split(joined, "\x00")
		}
		l := ParseLaunch(command, args)
		if strings.TrimSpace(command) == "" && l != (Launch{}) {
			t.Fatalf("blank command %q launches %+v", command, l)
		}
		if l.Launcher == "" && (l.Package != "" || l.Version != "") {
			t.Fatalf("package or version without a launcher: %+v", l)
		}
		if l.Package != strings.TrimSpace(l.Package) {
			t.Fatalf("package %q kept its blanks", l.Package)
		}
		if l != ParseLaunch(command, args) {
			t.Fatal("ParseLaunch is not deterministic")
		}
		// The same tokens as one line in "command" read the same, when no
		// token is blank or holds a blank of its own.
		tokens := append([]string{strings.TrimSpace(command)}, args...)
		for _, tok := range tokens {
			if tok == "" || strings.IndexFunc(tok, unicode.IsSpace) >= 0 {
				return
			}
		}
		if len(args) > 0 {
			if whole := ParseLaunch(strings.Join(tokens, " "), nil); whole != l {
				t.Fatalf("%q as one line gives %+v, as command and args %+v", strings.Join(tokens, " "), whole, l)
			}
		}
	})
}
