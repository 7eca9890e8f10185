package rules

import (
	"context"
	"testing"
)

// TestRegoTests runs every built-in _test.rego, as `opa test rules/` would.
func TestRegoTests(t *testing.T) {
	s, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Test(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatal("no rego tests found")
	}
	for _, r := range res {
		if !r.Pass {
			t.Errorf("%s:%d %s.%s failed (err=%v)", r.File, r.Line, r.Package, r.Name, r.Err)
		}
	}
}

// TestEveryRuleHasATest: a rule without a _test.rego beside it is untested.
func TestEveryRuleHasATest(t *testing.T) {
	s, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rules {
		want := r.File[:len(r.File)-len(".rego")] + "_test.rego"
		if _, ok := s.Tests[want]; !ok {
			t.Errorf("rule %s (%s) has no test file %s", r.ID, r.File, want)
		}
	}
}

func TestCompileBuiltin(t *testing.T) {
	s, err := LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}
