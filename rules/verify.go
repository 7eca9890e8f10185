package rules

import (
	"context"
	"fmt"
	"maps"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestResult is one _test.rego test outcome.
type TestResult struct {
	Package string
	Name    string
	File    string
	Line    int
	Pass    bool
	Fail    bool
	Err     error
}

// Test runs every _test.rego of the set against its rules, as `opa test` does
// (conftest's verify).
func Test(ctx context.Context, s *Set) ([]TestResult, error) {
	mods := maps.Clone(s.Modules)
	maps.Copy(mods, s.Tests)
	ch, err := tester.NewRunner().
		SetCompiler(ast.NewCompiler().WithCapabilities(Capabilities())).
		SetModules(mods).
		RaiseBuiltinErrors(true).
		RunTests(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("run rule tests: %w", err)
	}
	var out []TestResult
	for r := range ch {
		tr := TestResult{Package: r.Package, Name: r.Name, Pass: r.Pass(), Fail: r.Fail, Err: r.Error}
		if r.Location != nil {
			tr.File, tr.Line = r.Location.File, r.Location.Row
		}
		out = append(out, tr)
	}
	return out, nil
}
