// Package opencode collects OpenCode's config (opencode.json, opencode.jsonc):
// the bash permission the default agent runs with, model provider keys and
// MCP servers.
//
// OpenCode starts from permissive defaults: every permission but
// external_directory and doom_loop is "allow", so an agent whose config
// leaves bash alone runs every command without a person approving it, and
// OpenCode has no sandbox of its own. Rules are matched in order and the
// last one that matches wins; an agent's own permission (agent.build) is
// merged after the global one.
package opencode

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/homedir"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads OpenCode config files.
type Collector struct{}

// New returns the OpenCode collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "opencode" }

// Match accepts opencode.json and opencode.jsonc: a project's (at its root
// or in .opencode/), a user's (~/.config/opencode) and the managed one
// (/etc/opencode).
func (*Collector) Match(p string) bool {
	b := path.Base(p)
	return b == "opencode.json" || b == "opencode.jsonc"
}

func scope(p string) string {
	dir := path.Dir(p)
	switch {
	case dir == "etc/opencode" || strings.HasSuffix(dir, "/etc/opencode") || strings.HasSuffix(dir, "Application Support/opencode"):
		return "managed"
	case strings.HasSuffix(dir, ".config/opencode") || dir == "opencode" && homedir.In(p):
		return "user"
	}
	return "project"
}

// Collect implements collectors.Collector.
func (*Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := jsonpos.Parse(data)
	if err != nil {
		return err
	}
	if root.Kind != jsonpos.Object {
		return &collectors.ParseError{Line: root.Line, Err: fmt.Errorf("read config: want a JSON object, got %s", root.Kind)}
	}
	r := &reader{file: p, doc: doc}
	a := model.Agent{Tool: "opencode", Scope: scope(p), Loc: r.loc(root)}
	// OpenCode has no sandbox: where it runs decides its network, so the
	// file speaks for review only.
	a.Speaks = []string{"review"}
	r.permissions(root, &a)
	r.providers(root.Get("provider"))
	doc.Agents = append(doc.Agents, a)
	doc.Agents = append(doc.Agents, r.subagents(root, a)...)
	problems := r.mcpServers(root.Get("mcp"))
	if r.bad != nil {
		return r.bad
	}
	return entryErrors(problems)
}

type reader struct {
	file string
	doc  *model.Document
	bad  *collectors.ParseError
}

func (r *reader) loc(v *jsonpos.Value) model.Loc { return model.Loc{File: r.file, Line: v.Line} }

func (r *reader) wrongType(v *jsonpos.Value, key, want string) {
	if r.bad == nil {
		r.bad = &collectors.ParseError{Line: v.Line, Err: fmt.Errorf("%s is a %s, not %s", key, v.Kind, want)}
	}
}

func (r *reader) credential(ref model.SecretRef, where, context string, l model.Loc) {
	r.doc.Credentials = append(r.doc.Credentials, model.Credential{
		SecretRef: ref, Where: where, ReadableByAgent: true, Context: "opencode config " + context, Loc: l,
	})
}

// Variable substitution: {env:NAME} is the launching process's variable,
// {file:path} a file's content; neither is a literal secret.
var (
	envRef  = regexp.MustCompile(`\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)
	fileRef = regexp.MustCompile(`\{file:[^}]*\}`)
)

// substituted rewrites {env:NAME} as ${NAME}, the form the shared
// classifiers take for a forwarded variable, and drops {file:…}.
func substituted(v string) (string, bool) {
	if fileRef.MatchString(v) && strings.TrimSpace(fileRef.ReplaceAllString(v, "")) == "" {
		return "", true
	}
	return envRef.ReplaceAllString(v, "$${$1}"), false
}

// providers reads provider.<id>.options: an apiKey written into the config
// is readable by the agent (it reads its project) and by everyone with the
// repository.
func (r *reader) providers(v *jsonpos.Value) {
	if v == nil || v.Kind != jsonpos.Object {
		return
	}
	for _, p := range v.Members {
		opts := p.Value.Get("options")
		if opts == nil || opts.Kind != jsonpos.Object {
			continue
		}
		for _, o := range opts.Members {
			if o.Value.Kind != jsonpos.String {
				continue
			}
			val, file := substituted(o.Value.Str)
			if file || envRef.MatchString(o.Value.Str) {
				continue
			}
			var ref *model.SecretRef
			switch {
			case strings.EqualFold(o.Key, "apiKey"):
				ref = secrets.DetectNamed(o.Key, val)
			case o.Key == "headers":
			default:
				ref = secrets.Detect(val)
			}
			if ref != nil {
				r.credential(*ref, "settings", "provider "+p.Key+" options."+o.Key, model.Loc{File: r.file, Line: o.Line})
			}
		}
		if h := opts.Get("headers"); h != nil && h.Kind == jsonpos.Object {
			for _, m := range h.Members {
				if m.Value.Kind != jsonpos.String {
					continue
				}
				if val, file := substituted(m.Value.Str); !file {
					if ref := secrets.DetectNamed(m.Key, val); ref != nil && !envRef.MatchString(m.Value.Str) {
						r.credential(*ref, "settings", "provider "+p.Key+" header "+m.Key, model.Loc{File: r.file, Line: m.Line})
					}
				}
			}
		}
	}
}
