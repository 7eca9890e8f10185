package gemini

import (
	"fmt"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// mcpServers reads mcpServers.<name>: command/args/env (stdio), url (SSE) or
// httpUrl (streamable HTTP), headers, and trust, which skips every
// confirmation for the server's tools.
// A field of the wrong type is a problem; the rest of the entry and every
// other entry are read all the same.
func mcpServers(tool, file string, v *jsonpos.Value, doc *model.Document) []mcp.Problem {
	if v == nil || v.Kind == jsonpos.Null {
		return nil
	}
	if v.Kind != jsonpos.Object {
		return []mcp.Problem{{Line: v.Line, What: "mcpServers is not an object"}}
	}
	var problems []mcp.Problem
	loc := func(v *jsonpos.Value) model.Loc { return model.Loc{File: file, Line: v.Line} }
	for _, m := range v.Members {
		s := m.Value
		label := fmt.Sprintf("MCP server %q", m.Key)
		if s.Kind != jsonpos.Object {
			if s.Kind != jsonpos.Null {
				problems = append(problems, mcp.Problem{Line: m.Line, What: label + " is not an object"})
			}
			continue
		}
		problems = append(problems, mcp.ShapeProblems(label, s)...)
		ctx := tool + " MCP server " + m.Key
		cred := func(r model.SecretRef, where, what string, l model.Loc) {
			doc.Credentials = append(doc.Credentials, model.Credential{SecretRef: r, Where: where, Context: ctx + " " + what, ReadableByAgent: true, Loc: l})
		}
		srv := model.MCPServer{Name: m.Key, Config: tool, Transport: "stdio", Loc: model.Loc{File: file, Line: m.Line}}
		if c := s.Get("command"); c != nil && c.Kind == jsonpos.String {
			// A blank command launches nothing: it is kept as "" (no command).
			srv.Command = secrets.Redact(strings.TrimSpace(c.Str))
		}
		var args []string
		argv := s.Get("args")
		if elems, ok := argv.Strings(); ok {
			for _, e := range elems {
				args = append(args, e.Str)
			}
		}
		l := mcp.ParseLaunch(srv.Command, args)
		srv.Launcher, srv.Package, srv.Version, srv.Pinned = l.Launcher, l.Package, l.Version, l.Pinned
		// A remote server (no command) runs whatever its host serves: nothing is pinned.
		srv.Pinned = srv.Pinned && srv.Command != ""
		var found []secrets.Found
		srv.Args, found = secrets.HideArgs(args)
		for _, f := range found {
			cred(f.SecretRef, "arg", "arg "+f.Name, loc(argv))
		}
		for _, k := range []string{"httpUrl", "url"} {
			u := s.Get(k)
			if u == nil || u.Kind != jsonpos.String || u.Str == "" {
				continue
			}
			srv.Transport = "sse"
			if k == "httpUrl" {
				srv.Transport = "http"
			}
			if t := s.Get("type"); t != nil && t.Kind == jsonpos.String && t.Str == "http" {
				srv.Transport = "http"
			}
			srv.PlainHTTP = mcpcmd.PlainHTTP(u.Str)
			srv.URL, found = secrets.Hide(u.Str)
			for _, f := range found {
				cred(f.SecretRef, "url", k, loc(u))
			}
			break
		}
		if env := s.Get("env"); env != nil && env.Kind == jsonpos.Object {
			for _, e := range env.Members {
				ev := mcpcmd.EnvVar(e.Key, e.Value.Str, model.Loc{File: file, Line: e.Line})
				srv.Env = append(srv.Env, ev)
				if ev.Secret != nil {
					cred(*ev.Secret, "env", "env "+e.Key, ev.Loc)
				}
			}
		}
		if h := s.Get("headers"); h != nil && h.Kind == jsonpos.Object {
			for _, e := range h.Members {
				if e.Value.Kind == jsonpos.String {
					hv := mcpcmd.Header(e.Key, e.Value.Str, model.Loc{File: file, Line: e.Line})
					srv.Headers = append(srv.Headers, hv)
					if hv.Secret != nil {
						cred(*hv.Secret, "header", "header "+e.Key, hv.Loc)
					}
				}
			}
		}
		if t := s.Get("trust"); t != nil && t.Kind == jsonpos.Bool {
			srv.Trusted = &model.Bool{Value: t.Bool, Loc: loc(t)}
		}
		doc.MCPServers = append(doc.MCPServers, srv)
	}
	return problems
}
