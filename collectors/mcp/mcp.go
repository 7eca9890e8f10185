// Package mcp reads MCP server configurations: .mcp.json (Claude Code),
// .vscode/mcp.json (VS Code), .cursor/mcp.json, claude_desktop_config.json
// and any other mcp.json. Each server becomes a model.MCPServer: how it is
// launched and whether that is pinned, where it connects, and the literal
// secrets its env, headers, args and URL hold (kept only as credentials).
package mcp

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads MCP configuration files.
type Collector struct{}

var _ collectors.Collector = Collector{}

// Name implements collectors.Collector.
func (Collector) Name() string { return "mcp" }

// Match accepts the MCP configuration file names.
func (Collector) Match(p string) bool {
	switch path.Base(p) {
	case ".mcp.json", "mcp.json", "claude_desktop_config.json":
		return true
	}
	return false
}

// configKind names the client a file configures.
func configKind(p string) string {
	switch {
	case path.Base(p) == "claude_desktop_config.json":
		return "claude-desktop"
	case path.Base(path.Dir(p)) == ".vscode":
		return "vscode"
	case path.Base(path.Dir(p)) == ".cursor":
		return "cursor"
	}
	return "mcp.json"
}

// Collect implements collectors.Collector. A JSON file without an
// mcpServers or servers object is not an MCP configuration: nothing is added.
// Fields of the wrong type (args that is not a list of strings…) come back
// as one ParseError beside the facts of every entry.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	root, err := jsonpos.Parse(data)
	if err != nil {
		return err
	}
	c := &collector{path: p, doc: doc, kind: configKind(p)}
	var problems []Problem
	for _, key := range []string{"mcpServers", "servers"} {
		for _, m := range members(root.Get(key)) {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("read mcp servers: %w", err)
			}
			if m.Value.Kind == jsonpos.Object {
				// A field of the wrong type is reported, and the rest of
				// this entry and every other entry are still read.
				problems = append(problems, ShapeProblems(fmt.Sprintf("MCP server %q", m.Key), m.Value)...)
				doc.MCPServers = append(doc.MCPServers, c.server(m))
			}
		}
	}
	return EntryErrors(problems)
}

type collector struct {
	path string
	doc  *model.Document
	kind string
}

func (c *collector) loc(line int) model.Loc {
	return model.Loc{File: c.path, Line: line}
}

func (c *collector) credential(r model.SecretRef, where, context string, at *jsonpos.Value) {
	c.doc.Credentials = append(c.doc.Credentials, model.Credential{
		SecretRef: r, Where: where, Context: context,
		// The config sits in the project or the user's home, both readable
		// by an agent running as that user; the server's env is not the
		// agent's, but the file is.
		ReadableByAgent: true,
		Loc:             c.loc(at.Line),
	})
}

// server reads one server entry.
func (c *collector) server(m jsonpos.Member) model.MCPServer {
	v := m.Value
	s := model.MCPServer{Name: m.Key, Config: c.kind, Loc: c.loc(m.Line)}
	desc := "MCP server " + m.Key
	// A blank command launches nothing: it is kept as "" (no command).
	command := strings.TrimSpace(text(v.Get("command")))
	s.Command = secrets.Redact(command)
	var args []string
	var argVals []*jsonpos.Value
	for _, a := range elements(v.Get("args")) {
		args, argVals = append(args, text(a)), append(argVals, a)
	}
	redacted, finds := secrets.HideArgs(args)
	s.Args = append([]string{}, redacted...)
	for _, f := range finds {
		at := v
		if i := indexOf(redacted, args, f); i >= 0 {
			at = argVals[i]
		}
		c.credential(f.SecretRef, "arg", strings.TrimSpace(desc+" arg "+f.Name), at)
	}
	l := parseLaunch(command, args)
	s.Launcher, s.Package, s.Version, s.Pinned = l.launcher, l.pkg, l.version, l.pinned
	c.url(v, desc, &s)
	// A local bridge to a remote server (mcp-remote http://…, --server
	// http://…) carries the same traffic as a url would.
	for i, a := range args {
		flag, val, _ := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") || val == "" {
			val = a
			if i > 0 {
				flag = args[i-1]
			}
		}
		if strings.Contains(strings.ToLower(flag), "proxy") {
			continue // a proxy's address: TLS to the server goes through it
		}
		if _, literal := references(val); plainHTTP(literal) {
			s.PlainHTTP = true
		}
	}
	s.Transport = transport(text(v.Get("type")), command, s.URL)
	c.env(v, desc, &s)
	c.headers(v, desc, &s)
	if ef := v.Get("envFile"); text(ef) != "" {
		s.EnvFile = &model.Str{Value: text(ef), Loc: c.loc(ef.Line)}
	}
	for _, t := range elements(v.Get("tools")) {
		s.AllTools = s.AllTools || text(t) == "*"
	}
	if tv := v.Get("trust"); tv != nil && tv.Kind == jsonpos.Bool {
		s.Trusted = &model.Bool{Value: tv.Bool, Loc: c.loc(tv.Line)}
	}
	return s
}

// indexOf finds the argument a secret was found in: the first one its
// redaction changed that holds its marker.
func indexOf(redacted, args []string, f secrets.Found) int {
	for i := range redacted {
		if redacted[i] != args[i] && strings.Contains(redacted[i], f.Fingerprint) {
			return i
		}
	}
	return -1
}

// transport normalizes the type field, or infers it from what is set.
func transport(typ, command, url string) string {
	switch t := strings.ToLower(strings.TrimSpace(typ)); t {
	case "stdio", "local":
		return "stdio"
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return "http"
	case "sse":
		return "sse"
	case "":
		if command != "" {
			return "stdio"
		}
		if url != "" {
			return "http"
		}
		return ""
	default:
		return t
	}
}

// members lists an object's members in file order; nil for anything else.
func members(v *jsonpos.Value) []jsonpos.Member {
	if v == nil || v.Kind != jsonpos.Object {
		return nil
	}
	return v.Members
}

// elements lists an array's values; nil for anything else.
func elements(v *jsonpos.Value) []*jsonpos.Value {
	if v == nil || v.Kind != jsonpos.Array {
		return nil
	}
	return v.Elems
}

// text returns a string's value, a number's or boolean's JSON text, and ""
// for null, objects, arrays and absent values.
func text(v *jsonpos.Value) string {
	if v == nil {
		return ""
	}
	switch v.Kind {
	case jsonpos.String, jsonpos.Number:
		return v.Str
	case jsonpos.Bool:
		return strconv.FormatBool(v.Bool)
	}
	return ""
}
