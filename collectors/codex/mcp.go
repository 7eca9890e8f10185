package codex

import (
	"fmt"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// mcpServers reads [mcp_servers.<name>]. A server with enabled = false is
// not launched and adds no MCPServer, but its literal secrets still sit in
// the file and are reported. A field of the wrong type (Codex itself would
// refuse the file) is a problem; the rest of the entry, the other entries
// and the profiles are read all the same.
func (c *cfg) mcpServers(doc *model.Document) []mcp.Problem {
	var problems []mcp.Problem
	raw, present := c.root["mcp_servers"]
	servers, ok := raw.(map[string]any)
	if present && !ok {
		return []mcp.Problem{{Line: c.loc("mcp_servers").Line, What: "mcp_servers is not a table"}}
	}
	for _, name := range c.sortedKeys(servers, "mcp_servers") {
		label := fmt.Sprintf("MCP server %q", name)
		key := func(k ...string) model.Loc { return c.loc(append([]string{"mcp_servers", name}, k...)...) }
		s, ok := servers[name].(map[string]any)
		if !ok {
			problems = append(problems, mcp.Problem{Line: key().Line, What: label + " is not a table"})
			continue
		}
		problems = append(problems, c.shapeProblems(label, s, key)...)
		ctx := "codex MCP server " + name
		srv := model.MCPServer{Name: name, Config: "codex", Transport: "stdio", Loc: key()}
		cred := func(r model.SecretRef, where, what string, loc model.Loc) {
			doc.Credentials = append(doc.Credentials, model.Credential{SecretRef: r, Where: where, Context: ctx + " " + what, ReadableByAgent: true, Loc: loc})
		}
		// A blank command launches nothing: it is kept as "" (no command).
		srv.Command, _ = s["command"].(string)
		srv.Command = secrets.Redact(strings.TrimSpace(srv.Command))
		var args []string
		if list, ok := s["args"].([]any); ok {
			for _, a := range list {
				if str, ok := a.(string); ok {
					args = append(args, str)
				}
			}
		}
		launch := mcp.ParseLaunch(srv.Command, args)
		srv.Launcher, srv.Package, srv.Version, srv.Pinned = launch.Launcher, launch.Package, launch.Version, launch.Pinned
		// A remote server (no command) runs whatever its host serves: nothing is pinned.
		srv.Pinned = srv.Pinned && srv.Command != ""
		var found []secrets.Found
		srv.Args, found = secrets.HideArgs(args)
		for _, f := range found {
			cred(f.SecretRef, "arg", "arg "+f.Name, key("args"))
		}
		if u, ok := s["url"].(string); ok && u != "" {
			srv.Transport = "http"
			srv.PlainHTTP = mcpcmd.PlainHTTP(u)
			srv.URL, found = secrets.Hide(u)
			for _, f := range found {
				cred(f.SecretRef, "url", "url", key("url"))
			}
		}
		env, _ := s["env"].(map[string]any)
		for _, k := range c.sortedKeys(env, "mcp_servers", name, "env") {
			v, _ := env[k].(string)
			ev := mcpcmd.EnvVar(k, v, key("env", k))
			srv.Env = append(srv.Env, ev)
			if ev.Secret != nil {
				cred(*ev.Secret, "env", "env "+k, ev.Loc)
			}
		}
		// env_vars forwards variables of Codex's own environment by name.
		if list, ok := s["env_vars"].([]any); ok {
			for _, x := range list {
				if n, ok := x.(string); ok {
					srv.Env = append(srv.Env, model.EnvVar{Name: n, FromHost: n, SensitiveName: secrets.SensitiveName(n), Loc: key("env_vars")})
				}
			}
		}
		headers, _ := s["http_headers"].(map[string]any)
		for _, h := range c.sortedKeys(headers, "mcp_servers", name, "http_headers") {
			v, _ := headers[h].(string)
			hv := mcpcmd.Header(h, v, key("http_headers", h))
			srv.Headers = append(srv.Headers, hv)
			if hv.Secret != nil {
				cred(*hv.Secret, "header", "header "+h, hv.Loc)
			}
		}
		// env_http_headers takes each header's value from a variable of
		// Codex's own environment, named by the value.
		envHeaders, _ := s["env_http_headers"].(map[string]any)
		for _, h := range c.sortedKeys(envHeaders, "mcp_servers", name, "env_http_headers") {
			if n, ok := envHeaders[h].(string); ok && n != "" {
				srv.Headers = append(srv.Headers, model.EnvVar{Name: h, FromHost: n, SensitiveName: true, Loc: key("env_http_headers", h)})
			}
		}
		if tok, ok := s["bearer_token"].(string); ok && tok != "" && !secrets.IsReference(tok) {
			r := secrets.Detect(tok)
			if r == nil {
				r = &model.SecretRef{Kind: "bearer-token", Lifetime: "unknown", Fingerprint: secrets.Fingerprint(tok)}
			}
			cred(*r, "settings", "bearer_token", key("bearer_token"))
		}
		if enabled, ok := s["enabled"].(bool); ok && !enabled {
			continue
		}
		doc.MCPServers = append(doc.MCPServers, srv)
	}
	return problems
}

// shapeProblems checks the TOML types of the fields a server is read from.
func (c *cfg) shapeProblems(label string, s map[string]any, key func(...string) model.Loc) []mcp.Problem {
	var ps []mcp.Problem
	bad := func(k, what string) {
		ps = append(ps, mcp.Problem{Line: key(k).Line, What: label + ": " + k + " " + what})
	}
	for _, k := range []string{"command", "url", "bearer_token"} {
		if v, ok := s[k]; ok {
			if _, isStr := v.(string); !isStr {
				bad(k, "is not a string")
			}
		}
	}
	for _, k := range []string{"args", "env_vars"} {
		v, ok := s[k]
		if !ok {
			continue
		}
		list, isList := v.([]any)
		if !isList {
			bad(k, "is not a list of strings")
			continue
		}
		for _, x := range list {
			if _, isStr := x.(string); !isStr {
				bad(k, "holds a value that is not a string")
				break
			}
		}
	}
	for _, k := range []string{"env", "http_headers"} {
		v, ok := s[k]
		if !ok {
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			bad(k, "is not a table")
			continue
		}
		for _, x := range m {
			if _, isStr := x.(string); !isStr {
				bad(k, "holds a value that is not a string")
				break
			}
		}
	}
	if v, ok := s["enabled"]; ok {
		if _, isBool := v.(bool); !isBool {
			bad("enabled", "is not a boolean")
		}
	}
	return ps
}
