// Package cursor collects Cursor's agent sandbox settings
// (.cursor/sandbox.json): the sandbox type, the network policy and its
// allowlist, and keys Cursor does not document (the format is young and
// partly unverified, so a misspelt key is worth a look); and the Cursor
// CLI's permission rules (.cursor/cli.json in a project, cli-config.json
// in ~/.cursor): Shell(git), Read(src/**), Write(…) allowed and denied;
// and a cloud agent's environment (.cursor/environment.json), whose
// commands are searched for secrets and which is listed as not audited.
package cursor

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/homedir"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads .cursor/sandbox.json, .cursor/cli.json and
// .cursor/cli-config.json.
type Collector struct{}

// New returns the Cursor sandbox collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "cursor" }

// Match accepts sandbox.json, cli.json and cli-config.json in a .cursor
// directory (workspace or ~/.cursor).
func (*Collector) Match(p string) bool {
	switch path.Base(p) {
	case "sandbox.json", "cli.json", "cli-config.json", "environment.json":
		return path.Base(path.Dir(p)) == ".cursor"
	}
	return false
}

// cliKeys are the keys of the Cursor CLI's permission file, per object.
var cliKeys = map[string]map[string]bool{
	"":            {"$schema": true, "version": true, "permissions": true},
	"permissions": {"allow": true, "deny": true},
}

// knownKeys are the keys of Cursor's sandbox.json reference, per object.
var knownKeys = map[string]map[string]bool{
	"": {"$schema": true, "type": true, "additionalReadwritePaths": true, "additionalReadonlyPaths": true,
		"additionalReadPaths": true, "readBoundary": true, "disableTmpWrite": true,
		"enableSharedBuildCache": true, "networkPolicy": true},
	"networkPolicy": {"default": true, "allow": true, "deny": true},
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
		return &collectors.ParseError{Line: root.Line, Err: fmt.Errorf("read %s: want a JSON object, got %s", path.Base(p), root.Kind)}
	}
	if path.Base(p) == "environment.json" {
		return environment(p, root, doc)
	}
	loc := func(line int) model.Loc { return model.Loc{File: p, Line: line} }
	a := model.Agent{Tool: "cursor", Scope: "project", Loc: loc(root.Line)}
	if homedir.In(p) || path.Base(p) == "cli-config.json" {
		a.Scope = "user"
	}
	if path.Base(p) != "sandbox.json" {
		a.Speaks = []string{"review"}
		if err := cliPermissions(p, root, &a, doc); err != nil {
			return err
		}
		doc.Agents = append(doc.Agents, a)
		return nil
	}
	if t := root.Get("type"); t != nil && t.Kind == jsonpos.String {
		a.SandboxMode = &model.Str{Value: t.Str, Loc: loc(t.Line)}
		a.SandboxEnabled = &model.Bool{Value: t.Str != "insecure_none", Loc: loc(t.Line)}
	}
	np := root.Get("networkPolicy")
	if d := np.Get("default"); d != nil && d.Kind == jsonpos.String {
		a.NetworkDefault = &model.Str{Value: d.Str, Loc: loc(d.Line)}
		if d.Str == "allow" {
			a.NetworkAccess = &model.Bool{Value: true, Loc: loc(d.Line)}
		}
	}
	if elems, ok := np.Get("allow").Strings(); ok {
		for _, e := range elems {
			a.AllowedDomains = append(a.AllowedDomains, model.Str{Value: e.Str, Loc: loc(e.Line)})
		}
	}
	a.UnknownKeys = unknownKeys(knownKeys, []level{{"", root}, {"networkPolicy", np}}, loc)
	a.Speaks = []string{"network"}
	doc.Agents = append(doc.Agents, a)
	return nil
}

// level is an object of the file whose keys are checked, by its dotted
// path ("" for the top).
type level struct {
	name string
	v    *jsonpos.Value
}

// unknownKeys lists, by dotted path, the keys of each level that known
// does not hold for it. Levels go in a fixed order: ranging over a map
// gave unknown keys of one line in a different order from run to run.
func unknownKeys(known map[string]map[string]bool, levels []level, loc func(int) model.Loc) []model.Str {
	var out []model.Str
	for _, lv := range levels {
		if lv.v == nil || lv.v.Kind != jsonpos.Object {
			continue
		}
		for _, m := range lv.v.Members {
			if !known[lv.name][m.Key] {
				name := m.Key
				if lv.name != "" {
					name = lv.name + "." + name
				}
				out = append(out, model.Str{Value: name, Loc: loc(m.Line)})
			}
		}
	}
	sortByLine(out)
	return out
}

// sortByLine orders facts by line, keeping the order of those on one line.
func sortByLine(s []model.Str) {
	slices.SortStableFunc(s, func(a, b model.Str) int { return cmp.Compare(a.Line, b.Line) })
}

// cliPermissions reads the Cursor CLI's permission rules into a, as
// written: the agent rules read Shell(cmd) as Claude Code's Bash(cmd:*).
// What cannot be read as rules is an error, never an empty list that
// passes.
func cliPermissions(p string, root *jsonpos.Value, a *model.Agent, doc *model.Document) error {
	loc := func(line int) model.Loc { return model.Loc{File: p, Line: line} }
	perms := root.Get("permissions")
	if perms != nil && perms.Kind != jsonpos.Object {
		return &collectors.ParseError{Line: perms.Line, Err: fmt.Errorf("read %s: permissions: want an object, got %s", path.Base(p), perms.Kind)}
	}
	// A project's cli.json holds permissions only (and the file's
	// version); the user's cli-config.json holds every CLI setting, of
	// which only the permissions are read.
	levels := []level{{"permissions", perms}}
	if path.Base(p) == "cli.json" {
		levels = []level{{"", root}, {"permissions", perms}}
	}
	a.UnknownKeys = unknownKeys(cliKeys, levels, loc)
	for _, l := range []struct {
		key string
		to  *[]model.Str
	}{{"allow", &a.Allow}, {"deny", &a.Deny}} {
		v := perms.Get(l.key)
		if v == nil {
			continue
		}
		elems, ok := v.Strings()
		if !ok || len(elems) != len(v.Elems) {
			return &collectors.ParseError{Line: v.Line, Err: fmt.Errorf("read %s: permissions.%s: want a list of rules (strings)", path.Base(p), l.key)}
		}
		var ignored []model.Str
		for _, e := range elems {
			// A token written into a rule is a credential in a
			// file the agent reads, and is never quoted.
			out, found := secrets.Hide(e.Str)
			for _, f := range found {
				doc.Credentials = append(doc.Credentials, model.Credential{
					SecretRef: f.SecretRef, Where: "settings", ReadableByAgent: true,
					Context: "cursor cli permissions." + l.key, Loc: loc(e.Line),
				})
			}
			if !cursorRule(out) {
				ignored = append(ignored, model.Str{Value: out, Loc: loc(e.Line)})
				continue
			}
			*l.to = append(*l.to, model.Str{Value: out, Loc: loc(e.Line)})
		}
		// A rule of another agent's form (Claude Code's Bash(git:*)) is
		// one the CLI does not read. An allow rule it ignores grants
		// nothing (the command still asks); a deny rule it ignores is a
		// protection the author believes in that does not apply.
		if l.key == "deny" && len(ignored) > 0 {
			a.UnknownKeys = append(a.UnknownKeys, ignoredRules(l.key, ignored))
			sortByLine(a.UnknownKeys)
		}
	}
	return nil
}

// cursorKinds are the permission tokens of the Cursor CLI's reference.
var cursorKinds = []string{"Shell", "Read", "Write", "WebFetch", "Mcp"}

// cursorRule: the rule is one of the CLI's tokens, Kind(argument).
func cursorRule(r string) bool {
	for _, k := range cursorKinds {
		if strings.HasPrefix(r, k+"(") && strings.HasSuffix(r, ")") {
			return true
		}
	}
	return false
}

// ignoredRules names, at the first of them, the rules of a list the CLI
// does not read (up to three written out).
func ignoredRules(key string, rs []model.Str) model.Str {
	names := make([]string, 0, 3)
	for _, r := range rs[:min(3, len(rs))] {
		names = append(names, r.Value)
	}
	more := ""
	if len(rs) > 3 {
		more = fmt.Sprintf(" and %d more", len(rs)-3)
	}
	return model.Str{Value: fmt.Sprintf("permissions.%s rules %s%s (the CLI reads %s(…) rules only)", key, strings.Join(names, ", "), more,
		strings.Join(cursorKinds, "(…), ")), Loc: rs[0].Loc}
}
