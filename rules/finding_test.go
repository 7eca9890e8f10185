package rules

import (
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
