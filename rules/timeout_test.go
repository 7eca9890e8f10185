package rules

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

const slowMeta = `# METADATA
# title: Slow rule
# description: Iterates far longer than any rule should.
# related_resources:
#   - ref: https://www.openpolicyagent.org/docs/policy-performance
# custom:
#   id: team-slow
#   property: review
#   severity: low
#   remediation: Bound the iteration.
`

// stuckBody iterates 10^10 times, like a while loop that never ends.
const stuckBody = `
stuck if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i + j < 0
}

deny contains sa.finding(rego.metadata.chain(), {"file": "x", "line": 1}, "never") if stuck
`

// withCustomRule compiles the set load returns plus one custom rule
// package (rules.team_slow, METADATA slowMeta) with body, from a real
// rules directory.
func withCustomRule(t *testing.T, load func() (*Set, error), body string) *Engine {
	t.Helper()
	dir := t.TempDir()
	src := slowMeta + "package rules.team_slow\n\nimport data.lib.sa\n" + body
	if err := os.WriteFile(filepath.Join(dir, "slow.rego"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if err := set.AddDir(dir); err != nil {
		t.Fatal(err)
	}
	eng, err := Compile(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestCustomRuleTimeout: a custom rule that iterates without end is stopped
// at its time limit and named; the built-in rules and a quick custom rule are
// not affected by the limit.
func TestCustomRuleTimeout(t *testing.T) {
	tests := []struct {
		name, body string
		slow       bool
	}{
		{"nested iteration", stuckBody, true},
		{"huge comprehension", `
n := count({x | some i in numbers.range(1, 30000); some j in numbers.range(1, 30000); x := (i * j) % 1000})

deny contains sa.finding(rego.metadata.chain(), {"file": "x", "line": 1}, "never") if n < 0
`, true},
		{"quick", `
deny contains sa.finding(rego.metadata.chain(), {"file": "compose.yaml", "line": 1}, "quick") if count(input.workloads) >= 0
`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := withCustomRule(t, func() (*Set, error) { return LoadBuiltinRules() }, tt.body)
			in, err := Input(map[string]any{"workloads": []any{}, "agent_groups": map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			fs, err := eng.EvalTimeout(context.Background(), in, 300*time.Millisecond)
			took := time.Since(start)
			if !tt.slow {
				if err != nil || !hasRule(fs, "team-slow") {
					t.Fatalf("quick rule: findings %v, err %v", fs, err)
				}
				return
			}
			if !errors.Is(err, ErrRuleTimeout) || !errors.Is(err, ErrEval) {
				t.Fatalf("err = %v, want ErrRuleTimeout", err)
			}
			for _, want := range []string{"team-slow", "rules.team_slow", "slow.rego", "300ms"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
			// stopped at the limit, not at the end of the loop (minutes)
			if took > 10*time.Second {
				t.Errorf("evaluation took %s with a 300ms limit", took)
			}
		})
	}
}

func hasRule(fs []Finding, id string) bool {
	for _, f := range fs {
		if f.RuleID == id {
			return true
		}
	}
	return false
}

// TestCancelIsNotATimeout: the caller's own cancellation (SIGINT) is not
// reported as a rule's time limit.
func TestCancelIsNotATimeout(t *testing.T) {
	eng := withCustomRule(t, LoadLibrary, stuckBody)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := eng.EvalTimeout(ctx, ast.NewObject(), time.Minute)
	if err == nil || errors.Is(err, ErrRuleTimeout) || !errors.Is(err, ErrEval) {
		t.Fatalf("err = %v, want an evaluation error that is not a rule time limit", err)
	}
}
