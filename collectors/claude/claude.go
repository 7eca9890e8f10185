// Package claude collects Claude Code settings files: permission mode and
// rules, the Bash sandbox and its network allowlist, env, apiKeyHelper and
// unknown keys (which Claude Code ignores without a word).
package claude

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/homedir"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads Claude Code settings.json files.
type Collector struct{}

// New returns the Claude Code settings collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "claude" }

// Match accepts .claude/settings.json, .claude/settings.local.json,
// managed-settings.json anywhere (/etc/claude-code, macOS and Windows
// policy folders), a repository's copy of it under a name that says so
// (claude-managed-settings.json, installed by a devcontainer or image),
// and claude/settings.json in a home (~/.config/claude).
func (*Collector) Match(p string) bool {
	base, dir := path.Base(p), path.Base(path.Dir(p))
	switch {
	case managedName(base):
		return true
	case dir == ".claude":
		return base == "settings.json" || base == "settings.local.json"
	case dir == "claude" && base == "settings.json":
		return strings.Contains(p, ".config/claude/") || homedir.In(p)
	}
	return false
}

// scope says whose settings a file holds, which decides who can change it.
func scope(p string) string {
	switch {
	case managedName(path.Base(p)):
		return "managed"
	case path.Base(p) == "settings.local.json":
		return "local"
	case homedir.In(p) || strings.Contains(p, ".config/claude/"):
		return "user"
	}
	return "project"
}

// managedName: managed-settings.json, or a name ending so that names
// Claude (claude-managed-settings.json, claude-code.managed-settings.json).
func managedName(base string) bool {
	b := strings.ToLower(base)
	if b == "managed-settings.json" {
		return true
	}
	pre, ok := strings.CutSuffix(b, "managed-settings.json")
	return ok && strings.Contains(pre, "claude") && strings.ContainsAny(pre[len(pre)-1:], "-_.")
}

// Collect implements collectors.Collector. Facts are added even when a key
// has the wrong type; the first such key is then returned as a ParseError so
// errors[] says which setting Claude Code will reject.
func (*Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := jsonpos.Parse(data)
	if err != nil {
		return err
	}
	if root.Kind != jsonpos.Object {
		return &collectors.ParseError{Line: root.Line, Err: fmt.Errorf("read settings: want a JSON object, got %s", root.Kind)}
	}
	r := &reader{file: p}
	a := model.Agent{Tool: "claude-code", Scope: scope(p), Loc: model.Loc{File: p, Line: root.Line}}
	r.permissions(root.Get("permissions"), &a, doc)
	r.sandbox(root.Get("sandbox"), &a, doc)
	if root.Get("sandbox") == nil {
		// A file that leaves the sandbox alone says nothing of the
		// agent's network: where the agent runs decides it.
		a.Speaks = []string{"review"}
	}
	r.env(root.Get("env"), &a, doc)
	if s := r.str(root, "apiKeyHelper"); s != nil {
		a.APIKeyHelper = r.redacted(s, "apiKeyHelper", doc)
	}
	a.EnableAllMCP = r.boolean(root, "enableAllProjectMcpServers")
	a.UnknownKeys = r.unknownKeys(root)
	doc.Agents = append(doc.Agents, a)
	if r.bad != nil {
		return r.bad
	}
	return nil
}

// reader turns JSON values into model facts, remembering the first value
// of the wrong type.
type reader struct {
	file string
	bad  *collectors.ParseError
}

func (r *reader) loc(v *jsonpos.Value) model.Loc { return model.Loc{File: r.file, Line: v.Line} }

func (r *reader) wrongType(v *jsonpos.Value, key, want string) {
	if r.bad == nil {
		r.bad = &collectors.ParseError{Line: v.Line, Err: errors.New(key + ": want " + want + ", got " + v.Kind.String())}
	}
}

func (r *reader) str(obj *jsonpos.Value, key string) *model.Str {
	v := obj.Get(key)
	switch {
	case v == nil:
		return nil
	case v.Kind != jsonpos.String:
		r.wrongType(v, key, "a string")
		return nil
	}
	return &model.Str{Value: v.Str, Loc: r.loc(v)}
}

func (r *reader) boolean(obj *jsonpos.Value, key string) *model.Bool {
	v := obj.Get(key)
	switch {
	case v == nil:
		return nil
	case v.Kind != jsonpos.Bool:
		r.wrongType(v, key, "a boolean")
		return nil
	}
	return &model.Bool{Value: v.Bool, Loc: r.loc(v)}
}

func (r *reader) strs(obj *jsonpos.Value, key string) []model.Str {
	v := obj.Get(key)
	if v == nil {
		return nil
	}
	elems, ok := v.Strings()
	if !ok {
		r.wrongType(v, key, "an array of strings")
		return nil
	}
	out := make([]model.Str, 0, len(elems))
	for _, e := range elems {
		out = append(out, model.Str{Value: e.Str, Loc: r.loc(e)})
	}
	return out
}

// object returns v when it is an object (nil when absent or mistyped).
func (r *reader) object(v *jsonpos.Value, key string) *jsonpos.Value {
	if v != nil && v.Kind != jsonpos.Object {
		r.wrongType(v, key, "an object")
		return nil
	}
	return v
}
