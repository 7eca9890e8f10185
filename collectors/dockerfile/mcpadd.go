package dockerfile

import (
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/agentcli"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// mcpAddCLIs are the agent CLIs whose "mcp add" registers an MCP server in
// the image's agent settings, by the config name the MCP rules show.
var mcpAddCLIs = map[string]string{"claude": "claude mcp add", "codex": "codex mcp add", "gemini": "gemini mcp add"}

// mcpValueFlags are the options of "mcp add" that take a value.
var mcpValueFlags = map[string]bool{
	"-s": true, "--scope": true, "-t": true, "--transport": true, "-e": true, "--env": true,
	"-H": true, "--header": true, "--timeout": true, "--trust": false, "--description": true,
	"--include-tools": true, "--exclude-tools": true, "--bearer-token-env-var": true, "--url": true,
}

// mcpAdds reads the MCP servers a RUN registers with an agent CLI (claude
// mcp add NAME -- COMMAND ARGS…): the image's agent launches them, as if
// they were in a settings file. Each is placed on the line of the RUN's
// text where its "mcp add" is written (the n-th on the n-th such line).
func (b *builder) mcpAdds(n *parser.Node) {
	var lines []int
	for l := n.StartLine; l >= 1 && l <= n.EndLine && l <= len(b.src); l++ {
		if strings.Contains(b.src[l-1], "mcp add") {
			lines = append(lines, l)
		}
	}
	k := 0
	for _, script := range scripts(n) {
		for _, words := range agentcli.Split(script) {
			i := agentcli.ExeIndex(words)
			if i < 0 || i+3 > len(words) {
				continue
			}
			config, ok := mcpAddCLIs[words[i]]
			if !ok || words[i+1] != "mcp" || words[i+2] != "add" {
				continue
			}
			loc := b.loc(n)
			if k < len(lines) {
				loc.Line = lines[k]
			}
			k++
			if srv, ok := parseMCPAdd(words[i+3:], config, loc); ok {
				b.mcp = append(b.mcp, srv)
			}
		}
	}
}

func parseMCPAdd(args []string, config string, loc model.Loc) (model.MCPServer, bool) {
	srv := model.MCPServer{Config: config, Transport: "stdio", Loc: loc, Args: []string{}, Env: []model.EnvVar{}, Headers: []model.EnvVar{}}
	var pos []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			pos = append(pos, args[k+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(pos) >= 2 {
			// Options after the command belong to the server.
			pos = append(pos, a)
			continue
		}
		name, value, inline := strings.Cut(a, "=")
		if mcpValueFlags[name] && !inline && k+1 < len(args) {
			k++
			value = args[k]
		}
		switch name {
		case "-t", "--transport":
			srv.Transport = value
		case "-e", "--env":
			if n, v, ok := strings.Cut(value, "="); ok {
				srv.Env = append(srv.Env, mcpcmd.EnvVar(n, v, loc))
			}
		case "-H", "--header":
			if n, v, ok := strings.Cut(value, ":"); ok {
				srv.Headers = append(srv.Headers, mcpcmd.Header(strings.TrimSpace(n), strings.TrimSpace(v), loc))
			}
		}
	}
	if len(pos) < 2 {
		return srv, false
	}
	srv.Name = pos[0]
	if srv.Transport == "http" || srv.Transport == "sse" || strings.HasPrefix(pos[1], "http://") || strings.HasPrefix(pos[1], "https://") {
		if srv.Transport == "stdio" {
			srv.Transport = "http"
		}
		srv.URL = secrets.Redact(pos[1])
		srv.PlainHTTP = mcpcmd.PlainHTTP(pos[1])
		return srv, true
	}
	srv.Command = pos[1]
	for _, a := range pos[2:] {
		srv.Args = append(srv.Args, secrets.Redact(a))
	}
	l := mcp.ParseLaunch(srv.Command, pos[2:])
	srv.Launcher, srv.Package, srv.Version, srv.Pinned = l.Launcher, l.Package, l.Version, l.Pinned
	return srv, true
}
