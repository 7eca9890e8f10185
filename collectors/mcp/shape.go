package mcp

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/jsonpos"
)

// Problem is a field of one MCP server entry whose type no client accepts:
// the collector read what it could of the entry, but not that field.
type Problem struct {
	Line int
	What string // `MCP server "x": args is not a list of strings`; never a value
}

// EntryErrors turns the problems of one file into the error Collect returns
// beside the facts of every entry: one errors[] entry at the first problem's
// line that names every other. nil when there are none.
func EntryErrors(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	parts := []string{ps[0].What}
	for _, p := range ps[1:] {
		// "(line N)", not "line N:", which SafeReason takes for the
		// parser's own position and drops.
		parts = append(parts, fmt.Sprintf("%s (line %d)", p.What, p.Line))
	}
	return &collectors.ParseError{Line: ps[0].Line, Err: fmt.Errorf("%s", strings.Join(parts, "; "))}
}

// ShapeProblems checks the JSON types of the fields a server entry is read
// from (command, args, env, headers, url). null counts as absent; a number
// or boolean where a string belongs is read as its text, except in args,
// which every client wants as strings.
func ShapeProblems(label string, v *jsonpos.Value) []Problem {
	var ps []Problem
	bad := func(at *jsonpos.Value, what string) {
		ps = append(ps, Problem{Line: at.Line, What: label + ": " + what})
	}
	container := func(x *jsonpos.Value) bool { return x.Kind == jsonpos.Object || x.Kind == jsonpos.Array }
	for _, key := range []string{"command", "url", "httpUrl", "serverUrl"} {
		if x := v.Get(key); x != nil && container(x) {
			bad(x, key+" is not a string")
		}
	}
	if a := v.Get("args"); a != nil && a.Kind != jsonpos.Null {
		if a.Kind != jsonpos.Array {
			bad(a, "args is not a list of strings")
		} else {
			for _, e := range a.Elems {
				if e.Kind != jsonpos.String {
					bad(e, "args holds a "+e.Kind.String()+", not a string")
					break
				}
			}
		}
	}
	for _, key := range []string{"env", "headers"} {
		x := v.Get(key)
		if x == nil || x.Kind == jsonpos.Null {
			continue
		}
		if x.Kind != jsonpos.Object {
			bad(x, key+" is not an object")
			continue
		}
		for _, m := range x.Members {
			if container(m.Value) {
				// The key is not quoted: a message names places, not content.
				bad(m.Value, "a value of "+key+" is not a string")
			}
		}
	}
	return ps
}
