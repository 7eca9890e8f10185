package rules

import (
	"context"
	"slices"
	"strings"
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

// TestLoadSkipsAreas: the areas a scan skips are not read, and every other
// rule still loads and compiles on its own (no rule leans on a skipped area).
func TestLoadSkipsAreas(t *testing.T) {
	all, err := LoadBuiltinRules()
	if err != nil {
		t.Fatal(err)
	}
	areas := BuiltinAreas()
	for _, want := range []string{"deps", "live", "policy"} {
		if !slices.Contains(areas, want) {
			t.Fatalf("BuiltinAreas() = %v, missing %s", areas, want)
		}
	}
	for _, skip := range areas {
		s, err := LoadBuiltinRules(skip)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range all.Rules {
			if strings.HasPrefix(r.File, "rules/"+skip+"/") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("area %s holds no rule", skip)
		}
		if len(s.Rules) != len(all.Rules)-n {
			t.Errorf("without %s: %d rules, want %d", skip, len(s.Rules), len(all.Rules)-n)
		}
		for f := range s.Modules {
			if strings.HasPrefix(f, "rules/"+skip+"/") {
				t.Errorf("without %s: %s was loaded", skip, f)
			}
		}
		if _, err := Compile(context.Background(), s); err != nil {
			t.Errorf("without %s: %v", skip, err)
		}
	}
}
