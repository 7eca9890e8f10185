package opencode

import (
	"fmt"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// mcpServers reads mcp.<name>: a local server ({type: local, command: [argv],
// environment}) or a remote one ({type: remote, url, headers}). A server
// with enabled false is not started and is left out. A field of the wrong
// type is a problem; the rest of the entry and the other entries are read.
func (r *reader) mcpServers(v *jsonpos.Value) []mcp.Problem {
	if v == nil || v.Kind == jsonpos.Null {
		return nil
	}
	if v.Kind != jsonpos.Object {
		return []mcp.Problem{{Line: v.Line, What: "mcp is not an object"}}
	}
	var problems []mcp.Problem
	for _, m := range v.Members {
		s := m.Value
		label := fmt.Sprintf("MCP server %q", m.Key)
		if s.Kind != jsonpos.Object {
			if s.Kind != jsonpos.Null {
				problems = append(problems, mcp.Problem{Line: m.Line, What: label + " is not an object"})
			}
			continue
		}
		if e := s.Get("enabled"); e != nil && e.Kind == jsonpos.Bool && !e.Bool {
			continue
		}
		ctx := "MCP server " + m.Key
		srv := model.MCPServer{Name: m.Key, Config: "opencode", Transport: "stdio", Loc: model.Loc{File: r.file, Line: m.Line}}
		if c := s.Get("command"); c != nil && c.Kind != jsonpos.Null {
			argv, ok := c.Strings()
			if !ok || c.Kind != jsonpos.Array {
				problems = append(problems, mcp.Problem{Line: c.Line, What: label + ": command is not a list of strings"})
			}
			var words []string
			for _, w := range argv {
				words = append(words, w.Str)
			}
			if len(words) > 0 {
				srv.Command = secrets.Redact(strings.TrimSpace(words[0]))
				l := mcp.ParseLaunch(srv.Command, words[1:])
				srv.Launcher, srv.Package, srv.Version, srv.Pinned = l.Launcher, l.Package, l.Version, l.Pinned
				srv.Pinned = srv.Pinned && srv.Command != ""
				var found []secrets.Found
				srv.Args, found = secrets.HideArgs(words[1:])
				for _, f := range found {
					r.credential(f.SecretRef, "arg", ctx+" arg "+f.Name, r.loc(c))
				}
			}
		}
		if u := s.Get("url"); u != nil && u.Kind == jsonpos.String && u.Str != "" {
			srv.Transport = "http"
			srv.PlainHTTP = mcpcmd.PlainHTTP(u.Str)
			var found []secrets.Found
			srv.URL, found = secrets.Hide(u.Str)
			for _, f := range found {
				r.credential(f.SecretRef, "url", ctx+" url", r.loc(u))
			}
		}
		for _, key := range []string{"environment", "env"} {
			env := s.Get(key)
			if env == nil || env.Kind == jsonpos.Null {
				continue
			}
			if env.Kind != jsonpos.Object {
				problems = append(problems, mcp.Problem{Line: env.Line, What: label + ": " + key + " is not an object"})
				continue
			}
			for _, e := range env.Members {
				l := model.Loc{File: r.file, Line: e.Line}
				val, file := substituted(e.Value.Str)
				if file {
					srv.Env = append(srv.Env, model.EnvVar{Name: e.Key, SensitiveName: secrets.SensitiveName(e.Key), Loc: l})
					continue
				}
				ev := mcpcmd.EnvVar(e.Key, val, l)
				srv.Env = append(srv.Env, ev)
				if ev.Secret != nil {
					r.credential(*ev.Secret, "env", ctx+" env "+e.Key, l)
				}
			}
		}
		if h := s.Get("headers"); h != nil && h.Kind == jsonpos.Object {
			for _, e := range h.Members {
				if e.Value.Kind != jsonpos.String {
					continue
				}
				l := model.Loc{File: r.file, Line: e.Line}
				val, file := substituted(e.Value.Str)
				if file {
					srv.Headers = append(srv.Headers, model.EnvVar{Name: e.Key, SensitiveName: true, Loc: l})
					continue
				}
				hv := mcpcmd.Header(e.Key, val, l)
				srv.Headers = append(srv.Headers, hv)
				if hv.Secret != nil {
					r.credential(*hv.Secret, "header", ctx+" header "+e.Key, l)
				}
			}
		}
		r.doc.MCPServers = append(r.doc.MCPServers, srv)
	}
	return problems
}

func entryErrors(ps []mcp.Problem) error { return mcp.EntryErrors(ps) }
