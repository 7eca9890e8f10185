package rules

import (
	"context"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestFindingOf: a rule's output is read as encoding/json would read it
// into Finding: the known keys with their types, anything else refused.
func TestFindingOf(t *testing.T) {
	for _, tt := range []struct {
		in   string
		ok   bool
		want Finding
	}{
		{`{"rule_id": "r", "file": "f", "line": 3, "message": "m", "extra": [1]}`, true, Finding{RuleID: "r", File: "f", Line: 3, Message: "m"}},
		{`{"rule_id": "r", "file": "f", "line": null}`, true, Finding{RuleID: "r", File: "f"}},
		{`{"rule_id": "r", "file": "f", "line": "3"}`, false, Finding{}},
		{`{"rule_id": "r", "file": "f", "line": 2.5}`, false, Finding{}},
		{`{"rule_id": 7, "file": "f"}`, false, Finding{}},
		{`"oops"`, false, Finding{}},
		{`["rule_id", "r"]`, false, Finding{}},
	} {
		v := ast.MustParseTerm(tt.in).Value
		got, ok := findingOf(v)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("findingOf(%s) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestCustomReadsBuiltin: a custom rule may read a built-in rule package;
// it compiles with every module, as rules test compiles it, so the
// reference is never silently undefined.
func TestCustomReadsBuiltin(t *testing.T) {
	s, err := LoadBuiltinRules()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddDir("testdata/custom-reads-builtin"); err != nil {
		t.Fatal(err)
	}
	e, err := Compile(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	in := ast.MustParseTerm(`{"params": {}, "workloads": [{"id": "compose:agent", "source": "compose", "name": "agent", "file": "compose.yaml", "line": 3, "privileged": {"value": true, "file": "compose.yaml", "line": 4}}]}`).Value
	fs, err := e.Eval(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.RuleID)
	}
	if !slices.Contains(ids, "privileged-container") || !slices.Contains(ids, "team-privileged") {
		t.Errorf("findings %v; want the built-in rule and the custom one reading it", ids)
	}
}
