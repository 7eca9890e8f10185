package mcp

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLaunch(t *testing.T) {
	const digest = "sha256:0f2e1d5a4b3c6e8f7a9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f"
	tests := []struct {
		line string
		want launch
	}{
		{"npx -y @scope/pkg@1.2.3 --flag", launch{"npx", "@scope/pkg", "1.2.3", true}},
		{"npx -y @scope/pkg", launch{"npx", "@scope/pkg", "", false}},
		{"npx pkg@latest", launch{"npx", "pkg", "latest", false}},
		{"npx --yes pkg@^1.2.0", launch{"npx", "pkg", "^1.2.0", false}},
		{"npx -p @scope/pkg@2.0.0-rc.1 pkg-bin", launch{"npx", "@scope/pkg", "2.0.0-rc.1", true}},
		{"npx --package=pkg@3.1.4 bin", launch{"npx", "pkg", "3.1.4", true}},
		{"npx --registry https://r.example.com pkg@1.0.0", launch{"npx", "pkg", "1.0.0", true}},
		{"npx ./tools/server", launch{"npx", "./tools/server", "", true}},
		{"npx github:owner/repo", launch{"npx", "github:owner/repo", "", false}},
		{"npx github:owner/repo#0123456789abcdef0123456789abcdef01234567", launch{"npx", "github:owner/repo", "0123456789abcdef0123456789abcdef01234567", true}},
		{"npx.cmd -y pkg@1.0.0", launch{"npx", "pkg", "1.0.0", true}},
		{"cmd /c npx -y pkg", launch{"npx", "pkg", "", false}},
		{"bunx pkg@1.0.0", launch{"bunx", "pkg", "1.0.0", true}},
		{"bun x pkg", launch{"bunx", "pkg", "", false}},
		{"pnpm dlx pkg@1.0.0", launch{"pnpm", "pkg", "1.0.0", true}},
		{"pnpx pkg", launch{"pnpm", "pkg", "", false}},
		{"yarn dlx pkg@1", launch{"yarn", "pkg", "1", false}},
		{"npm exec -- pkg@1.0.0", launch{"npx", "pkg", "1.0.0", true}},
		{"uvx mcp-server-fetch", launch{"uvx", "mcp-server-fetch", "", false}},
		{"uvx mcp-server-fetch==2025.4.7", launch{"uvx", "mcp-server-fetch", "2025.4.7", true}},
		{"uvx mcp-server-fetch@0.6.2", launch{"uvx", "mcp-server-fetch", "0.6.2", true}},
		{"uvx mcp-server-fetch@latest", launch{"uvx", "mcp-server-fetch", "latest", false}},
		{"uvx pkg>=1.0", launch{"uvx", "pkg", ">=1.0", false}},
		{"uvx --python 3.12 --from pkg[cli]==1.4 pkg-cli serve", launch{"uvx", "pkg", "1.4", true}},
		{"uvx --from git+https://github.com/o/r@0123456789abcdef0123456789abcdef01234567 r", launch{"uvx", "git+https://github.com/o/r", "0123456789abcdef0123456789abcdef01234567", true}},
		{"uv tool run pkg==1.0", launch{"uvx", "pkg", "1.0", true}},
		{"pipx run --spec pkg==2.1 pkg", launch{"pipx", "pkg", "2.1", true}},
		{"pipx run pkg", launch{"pipx", "pkg", "", false}},
		{"docker run -i --rm -e TOKEN ghcr.io/o/img:1.0", launch{"docker", "ghcr.io/o/img", "1.0", false}},
		{"docker run -i --rm --env=A=1 -v /a:/b --network none img", launch{"docker", "img", "", false}},
		{"docker run img@" + digest, launch{"docker", "img", digest, true}},
		{"podman run --rm registry:5000/img:2@" + digest + " serve", launch{"podman", "registry:5000/img", digest, true}},
		{"docker run registry:5000/img", launch{"docker", "registry:5000/img", "", false}},
		{"docker run img@sha256:short", launch{"docker", "img", "sha256:short", false}},
		{"docker container run img:1", launch{"docker", "img", "1", false}},
		{"docker run -i --rm ghcr.io/github/github-mcp-server:v0.27.0", launch{"docker", "ghcr.io/github/github-mcp-server", "v0.27.0", true}},
		{"docker run img:latest", launch{"docker", "img", "latest", false}},
		{"node /srv/mcp/server.js", launch{"", "", "", true}},
		{"/usr/local/bin/mcp-server --stdio", launch{"", "", "", true}},
		{"python -m my_server", launch{"", "", "", true}},
		{"docker ps", launch{"", "", "", true}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			f := strings.Fields(tt.line)
			if diff := cmp.Diff(tt.want, parseLaunch(f[0], f[1:]), cmp.AllowUnexported(launch{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Some clients take the whole line in "command".
	if got := parseLaunch("npx -y pkg@1.0.0", nil); got != (launch{"npx", "pkg", "1.0.0", true}) {
		t.Errorf("whole command line: got %+v", got)
	}
}

// TestParseLaunchDegenerate: blank, quote-only and flag-only command lines
// once panicked (strings.Fields of " " is empty) and took the whole file
// with them. A blank command launches nothing.
func TestParseLaunchDegenerate(t *testing.T) {
	tests := []struct {
		name    string
		command string
		args    []string
		want    launch
	}{
		{"empty", "", nil, launch{}},
		{"space", " ", nil, launch{}},
		{"tab", "\t", nil, launch{}},
		{"newlines and spaces", " \n\r\v ", nil, launch{}},
		{"blank with args", "  ", []string{"-y", "pkg"}, launch{}},
		{"cmd /c blank", "cmd", []string{"/c", " "}, launch{pinned: true}},
		{"cmd /c nothing", "cmd", []string{"/c"}, launch{pinned: true}},
		{"quotes only", `""`, nil, launch{pinned: true}},
		{"quoted blank", `" "`, nil, launch{pinned: true}},
		{"lone --", "--", nil, launch{pinned: true}},
		{"npx --", "npx", []string{"--"}, launch{launcher: "npx"}},
		{"npx -- blank", "npx", []string{"--", " "}, launch{launcher: "npx"}},
		{"npx -p at end", "npx", []string{"-p"}, launch{launcher: "npx"}},
		{"uvx --from at end", "uvx", []string{"--from"}, launch{launcher: "uvx"}},
		{"docker run nothing", "docker", []string{"run"}, launch{launcher: "docker"}},
		{"docker run @", "docker", []string{"run", "@"}, launch{launcher: "docker"}},
		{"whole line with tab", "npx\t-y\tpkg@1.0.0", nil, launch{"npx", "pkg", "1.0.0", true}},
		{"leading blank line", "  npx -y pkg", nil, launch{"npx", "pkg", "", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseLaunch(tt.command, tt.args), cmp.AllowUnexported(launch{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
