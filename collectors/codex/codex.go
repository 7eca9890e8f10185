// Package codex collects OpenAI Codex CLI settings (config.toml): sandbox
// mode, approval policy, network access, environment inheritance, history,
// plaintext provider tokens and MCP servers. Every profile is audited as
// its own agent, since `codex --profile x` runs with x merged over the top.
package codex

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/homedir"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads Codex config.toml files.
type Collector struct{}

// New returns the Codex collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "codex" }

// Match accepts config.toml in a .codex or codex directory: the project's
// .codex/config.toml, ~/.codex/config.toml and /etc/codex/config.toml.
func (*Collector) Match(p string) bool {
	if managedName(path.Base(p)) {
		return true
	}
	if path.Base(p) != "config.toml" {
		return false
	}
	dir := path.Dir(p)
	if b := path.Base(dir); b == ".codex" || b == "codex" {
		return true
	}
	// A CODEX_HOME kept in the repository for openai/codex-action
	// (codex-home: .github/codex/home) is the same file one level down.
	b := path.Base(path.Dir(dir))
	return path.Base(dir) == "home" && (b == ".codex" || b == "codex")
}

// Collect implements collectors.Collector.
func (*Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var root map[string]any
	if err := toml.Unmarshal(data, &root); err != nil {
		line, col := 0, 0
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col = de.Position()
		}
		return &collectors.ParseError{Line: line, Col: col, Err: fmt.Errorf("parse toml: %w", err)}
	}
	c := &cfg{file: p, root: root, lines: keyLines(data), scope: scope(p)}
	doc.Agents = append(doc.Agents, c.agent(""))
	for _, name := range c.profiles() {
		doc.Agents = append(doc.Agents, c.agent(name))
	}
	c.providers(doc)
	return mcp.EntryErrors(c.mcpServers(doc))
}

// managedName: Codex's managed_config.toml, or a repository's copy of
// it under a name that says so (codex-managed-config.toml, installed into
// /etc/codex by a devcontainer or image).
func managedName(base string) bool {
	b := strings.ToLower(base)
	if b == "managed_config.toml" {
		return true
	}
	for _, suffix := range []string{"managed_config.toml", "managed-config.toml"} {
		if pre, ok := strings.CutSuffix(b, suffix); ok && strings.Contains(pre, "codex") && strings.ContainsAny(pre[len(pre)-1:], "-_.") {
			return true
		}
	}
	return false
}

// scope tells whose settings these are from where the file lies.
func scope(p string) string {
	switch {
	case strings.HasPrefix(p, "etc/") || strings.Contains(p, "/etc/codex/") || managedName(path.Base(p)):
		return "managed"
	case homedir.In(p):
		return "user"
	}
	return "project"
}

// cfg is one parsed file with key lines.
type cfg struct {
	file  string
	scope string
	root  map[string]any
	lines map[string]int
}

func (c *cfg) loc(keys ...string) model.Loc {
	return model.Loc{File: c.file, Line: c.lines[join(keys)]}
}

// profiles lists [profiles.<name>] in file order.
func (c *cfg) profiles() []string {
	ps, _ := c.root["profiles"].(map[string]any)
	var names []string
	for n, v := range ps {
		if _, ok := v.(map[string]any); ok {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		li, lj := c.lines[join([]string{"profiles", names[i]})], c.lines[join([]string{"profiles", names[j]})]
		if li != lj {
			return li < lj
		}
		return names[i] < names[j]
	})
	return names
}

// get reads keys for a profile: the profile's own value when it sets one,
// else the top level's. It returns the value and where it was written.
func (c *cfg) get(profile string, keys ...string) (any, model.Loc, bool) {
	if profile != "" {
		full := append([]string{"profiles", profile}, keys...)
		if v, ok := lookup(c.root, full); ok {
			return v, c.loc(full...), true
		}
	}
	if v, ok := lookup(c.root, keys); ok {
		return v, c.loc(keys...), true
	}
	return nil, model.Loc{}, false
}

func lookup(m map[string]any, keys []string) (any, bool) {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func (c *cfg) str(profile string, keys ...string) *model.Str {
	v, loc, ok := c.get(profile, keys...)
	if s, isStr := v.(string); ok && isStr {
		return &model.Str{Value: s, Loc: loc}
	}
	return nil
}

func (c *cfg) boolean(profile string, keys ...string) *model.Bool {
	v, loc, ok := c.get(profile, keys...)
	if b, isBool := v.(bool); ok && isBool {
		return &model.Bool{Value: b, Loc: loc}
	}
	return nil
}

// sortedKeys gives map keys in file order so facts come out stable.
func (c *cfg) sortedKeys(m map[string]any, parent ...string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li := c.lines[join(append(append([]string{}, parent...), keys[i]))]
		lj := c.lines[join(append(append([]string{}, parent...), keys[j]))]
		if li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
	return keys
}
