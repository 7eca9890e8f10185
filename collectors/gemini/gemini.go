// Package gemini collects Gemini CLI settings (.gemini/settings.json): the
// tool sandbox, the default approval mode (yolo), whether yolo can be
// disabled, and MCP servers with their trust flag. Both the nested settings
// format (tools.sandbox, general.defaultApprovalMode) and the older flat one
// (sandbox, autoAccept) are read. Qwen Code, a fork of Gemini CLI, keeps the
// same settings in .qwen/settings.json, with its approval mode at
// tools.approvalMode, Claude Code's permission rules (permissions.allow:
// Bash(git push *)) and an env block; those are read for it too.
package gemini

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/codex/mcpcmd"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/homedir"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
	"github.com/sandbox-audit/sandbox-audit/collectors/mcp"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads Gemini CLI settings.json files.
type Collector struct{}

// New returns the Gemini CLI collector.
func New() *Collector { return &Collector{} }

// Name implements collectors.Collector.
func (*Collector) Name() string { return "gemini" }

// Match accepts .gemini/settings.json and .qwen/settings.json (project and
// home) and the system settings in a gemini-cli or qwen-code directory
// (/etc/gemini-cli/settings.json, /etc/qwen-code/settings.json).
func (*Collector) Match(p string) bool {
	if path.Base(p) != "settings.json" {
		return false
	}
	switch path.Base(path.Dir(p)) {
	case ".gemini", "gemini-cli", ".qwen", "qwen-code":
		return true
	}
	return false
}

// tool is the agent whose settings a matched file holds.
func tool(p string) string {
	switch path.Base(path.Dir(p)) {
	case ".qwen", "qwen-code":
		return "qwen"
	}
	return "gemini"
}

func scope(p string) string {
	switch {
	case path.Base(path.Dir(p)) == "gemini-cli" || path.Base(path.Dir(p)) == "qwen-code":
		return "managed"
	case homedir.In(p):
		return "user"
	}
	return "project"
}

// approvalModes normalizes general.defaultApprovalMode and --approval-mode.
// Qwen Code writes auto-edit.
var approvalModes = map[string]string{"yolo": "bypass", "auto_edit": "auto", "auto-edit": "auto", "default": "default", "plan": "plan"}

// ApprovalMode normalizes a Gemini CLI approval mode as written in
// general.defaultApprovalMode or --approval-mode (bypass for yolo, auto for
// auto_edit, default, plan); ok is false for a mode Gemini CLI does not know.
func ApprovalMode(raw string) (mode string, ok bool) {
	mode, ok = approvalModes[raw]
	return mode, ok
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
		return &collectors.ParseError{Line: root.Line, Err: fmt.Errorf("read settings: want a JSON object, got %s", root.Kind)}
	}
	loc := func(v *jsonpos.Value) model.Loc { return model.Loc{File: p, Line: v.Line} }
	a := model.Agent{Tool: tool(p), Scope: scope(p), Loc: model.Loc{File: p, Line: root.Line}}

	sb := root.Path("tools", "sandbox")
	if sb == nil {
		sb = root.Get("sandbox")
	}
	sandbox(sb, &a, loc)
	if sb == nil {
		// A file that leaves the sandbox alone says nothing of the
		// agent's network: where the agent runs decides it.
		a.Speaks = []string{"review"}
	}

	m := root.Path("general", "defaultApprovalMode")
	if q := root.Path("tools", "approvalMode"); a.Tool == "qwen" && q != nil {
		m = q
	}
	switch {
	case m != nil && m.Kind == jsonpos.String:
		a.ApprovalRaw = &model.Str{Value: m.Str, Loc: loc(m)}
		if mode, ok := approvalModes[m.Str]; ok {
			a.ApprovalMode = &model.Str{Value: mode, Loc: loc(m)}
		}
	default:
		// Older settings: yolo / autoAccept booleans.
		for _, k := range [][]string{{"yolo"}, {"tools", "autoAccept"}, {"autoAccept"}} {
			if v := root.Path(k...); v != nil && v.Kind == jsonpos.Bool && v.Bool {
				mode := "auto"
				if k[0] == "yolo" {
					mode = "bypass"
				}
				a.ApprovalRaw = &model.Str{Value: strings.Join(k, "."), Loc: loc(v)}
				a.ApprovalMode = &model.Str{Value: mode, Loc: loc(v)}
				break
			}
		}
	}
	for _, v := range []*jsonpos.Value{root.Path("security", "disableYoloMode"), root.Get("disableYoloMode")} {
		if v != nil && v.Kind == jsonpos.Bool {
			a.BypassDisabled = &model.Bool{Value: v.Bool, Loc: loc(v)}
			break
		}
	}
	// Tool lists, nested (tools.core) and in the older flat form (coreTools):
	// core is the only set of built-in tools the CLI offers, allowed skips
	// their confirmation, exclude removes them.
	if core := first(root.Path("tools", "core"), root.Get("coreTools")); core != nil && core.Kind == jsonpos.Array {
		// An empty list is a list: no built-in tool at all.
		l := loc(core)
		a.ToolList = &l
		a.Tools = strs(core, loc)
	}
	a.Allow = strs(first(root.Path("tools", "allowed"), root.Get("allowedTools")), loc)
	a.Deny = strs(first(root.Path("tools", "exclude"), root.Get("excludeTools")), loc)
	if a.Tool == "qwen" {
		qwenSettings(p, root, &a, doc)
	}
	doc.Agents = append(doc.Agents, a)
	return mcp.EntryErrors(mcpServers(a.Tool, p, root.Get("mcpServers"), doc))
}

// first returns the first value that is set.
func first(vs ...*jsonpos.Value) *jsonpos.Value {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

// strs reads an array of strings; other elements are skipped.
func strs(v *jsonpos.Value, loc func(*jsonpos.Value) model.Loc) []model.Str {
	elems, _ := v.Strings()
	var out []model.Str
	for _, e := range elems {
		out = append(out, model.Str{Value: e.Str, Loc: loc(e)})
	}
	return out
}

// sandbox reads tools.sandbox: a boolean, a runtime name (docker, podman,
// sandbox-exec, runsc, lxc) or {command, image}.
func sandbox(v *jsonpos.Value, a *model.Agent, loc func(*jsonpos.Value) model.Loc) {
	if v == nil {
		return
	}
	switch v.Kind {
	case jsonpos.Bool:
		a.SandboxEnabled = &model.Bool{Value: v.Bool, Loc: loc(v)}
	case jsonpos.String:
		switch strings.ToLower(v.Str) {
		case "false", "0", "":
			a.SandboxEnabled = &model.Bool{Value: false, Loc: loc(v)}
			return
		case "true", "1":
			a.SandboxEnabled = &model.Bool{Value: true, Loc: loc(v)}
			return
		}
		a.SandboxEnabled = &model.Bool{Value: true, Loc: loc(v)}
		a.SandboxMode = &model.Str{Value: v.Str, Loc: loc(v)}
	case jsonpos.Object:
		a.SandboxEnabled = &model.Bool{Value: true, Loc: loc(v)}
		mode := "custom"
		if c := v.Get("command"); c != nil && c.Kind == jsonpos.String && c.Str != "" {
			mode = c.Str
		}
		a.SandboxMode = &model.Str{Value: mode, Loc: loc(v)}
	}
}

// qwenSettings reads what Qwen Code adds to Gemini CLI's settings: Claude
// Code's permission rules (permissions.allow, ask, deny: Bash(git push *))
// and env, whose literal tokens the agent and every command it runs read.
func qwenSettings(p string, root *jsonpos.Value, a *model.Agent, doc *model.Document) {
	loc := func(v *jsonpos.Value) model.Loc { return model.Loc{File: p, Line: v.Line} }
	if perms := root.Get("permissions"); perms != nil && perms.Kind == jsonpos.Object {
		for _, l := range []struct {
			key  string
			into *[]model.Str
		}{{"allow", &a.Allow}, {"ask", &a.Ask}, {"deny", &a.Deny}} {
			for _, r := range strs(perms.Get(l.key), loc) {
				hidden, found := secrets.Hide(r.Value)
				for _, f := range found {
					doc.Credentials = append(doc.Credentials, model.Credential{SecretRef: f.SecretRef, Where: "settings", ReadableByAgent: true, Context: "qwen settings permissions." + l.key, Loc: r.Loc})
				}
				*l.into = append(*l.into, model.Str{Value: hidden, Loc: r.Loc})
			}
		}
	}
	if env := root.Get("env"); env != nil && env.Kind == jsonpos.Object {
		for _, m := range env.Members {
			if m.Value.Kind != jsonpos.String {
				continue
			}
			ev := mcpcmd.EnvVar(m.Key, m.Value.Str, model.Loc{File: p, Line: m.Line})
			if ev.Secret != nil {
				doc.Credentials = append(doc.Credentials, model.Credential{SecretRef: *ev.Secret, Where: "env", ReadableByAgent: true, Context: "qwen settings env " + m.Key, Loc: ev.Loc})
			}
			a.Env = append(a.Env, ev)
		}
	}
}
