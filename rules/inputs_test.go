package rules

import (
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestReadsOf: the keys of input a module reads, and "all" whenever a
// reference does not name its key, so an area is never skipped on an input
// it could have judged.
func TestReadsOf(t *testing.T) {
	for _, tt := range []struct {
		body  string
		keys  []string // nil: every input (input read whole, or no fact read at all)
		libs  []string
		other bool
	}{
		{`deny contains x if { some x in input.workloads }`, []string{"workloads"}, nil, false},
		{`deny contains x if { some x in object.get(input, "agents", []) }`, []string{"agents"}, nil, false},
		{`deny contains x if { x := object.get(input, ["compose", "a"], 1) }`, []string{"compose"}, nil, false},
		{`deny contains x if { x := object.get(object.get(input, "params", {}), "k", 1); some w in input.images }`, []string{"images"}, nil, false},
		{`deny contains x if { some k; x := input[k] }`, nil, nil, false},
		{`deny contains x if { k := "workloads"; x := object.get(input, k, []) }`, nil, nil, false},
		{`deny contains x if { walk(input, x) }`, nil, nil, false},
		{`deny contains x if { x := count(input) }`, nil, nil, false},
		{`deny contains x if { x := 1; not input.live }`, nil, nil, false},
		{`deny contains x if { x := 1; not object.get(input, "deps", false) }`, nil, nil, false},
		{`deny contains x if { some w in input.workloads; not w.privileged; x := w }`, []string{"workloads"}, nil, false},
		{`deny contains x if { some x in data.lib.workload.judged_workloads }`, nil, []string{"lib.workload"}, false},
		{`deny contains x if { some x in data.rules.other.deny }`, nil, nil, true},
	} {
		m := ast.MustParseModuleWithOpts("package rules.t\n"+tt.body, ast.ParserOptions{RegoVersion: ast.RegoV1})
		r := readsOf([]*ast.Module{m})
		keys := r.factKeys()
		if !slices.Equal(keys, tt.keys) {
			t.Errorf("%s: keys %v (all %v), want %v", tt.body, keys, r.all, tt.keys)
		}
		var libs []string
		for l := range r.libs {
			libs = append(libs, l)
		}
		if !slices.Equal(libs, tt.libs) {
			t.Errorf("%s: libs %v, want %v", tt.body, libs, tt.libs)
		}
		if (len(r.other) > 0) != tt.other {
			t.Errorf("%s: other %v", tt.body, r.other)
		}
	}
}

// TestHasAny: empty and absent values have nothing to judge.
func TestHasAny(t *testing.T) {
	in := ast.MustParseTerm(`{"a": [], "b": {}, "c": null, "d": "", "e": [1], "f": {"x": 1}, "g": 0}`).Value
	for k, want := range map[string]bool{"a": false, "b": false, "c": false, "d": false, "e": true, "f": true, "g": true, "z": false} {
		if got := hasAny(in, []string{k}); got != want {
			t.Errorf("hasAny(%s) = %v", k, got)
		}
	}
	if !hasAny(in, []string{"a", "e"}) {
		t.Error("one non-empty key is enough")
	}
}
