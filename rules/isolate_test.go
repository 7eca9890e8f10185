package rules

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// conflicting is a built-in-like workload rule that gives two values for one
// key on any workload with an image: an input its author did not foresee.
const conflicting = `# METADATA
# title: Conflicting rule
# description: Gives two values for one key.
# related_resources:
#   - ref: https://www.openpolicyagent.org/docs/policy-language
# custom:
#   id: zz-conflict
#   property: credentials
#   severity: low
#   remediation: Give each key one value.
package rules.zz_conflict

import data.lib.sa

tag := "a" if input.workloads[_].image
tag := "b" if input.workloads[_].image

deny contains sa.finding(rego.metadata.chain(), {"file": "compose.yaml", "line": 1}, tag)
`

// TestBuiltinRuleFailureIsIsolated: a built-in rule that fails on an input
// is named in a PartialError, and every other rule of its area still gives
// its findings (the area's one query would otherwise fail whole). On an
// input it does not fail on, nothing is reported as failed.
func TestBuiltinRuleFailureIsIsolated(t *testing.T) {
	s, err := LoadBuiltinRules()
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"workload/zz_conflict.rego": {Data: []byte(conflicting)}}
	if err := s.addFS(fsys, nil, ".", "rules", true, false); err != nil {
		t.Fatal(err)
	}
	eng, err := Compile(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	privileged := map[string]any{"workloads": []any{map[string]any{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 3, "role": "agent", "judged": true,
		"privileged": map[string]any{"value": true, "file": "compose.yaml", "line": 6},
	}}}
	in, err := Input(privileged)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := eng.Eval(context.Background(), in)
	if err != nil || !hasRule(fs, "privileged-container") || hasRule(fs, "zz-conflict") {
		t.Fatalf("without an image: err %v, findings %v", err, fs)
	}

	privileged["workloads"].([]any)[0].(map[string]any)["image"] = "node:22"
	if in, err = Input(privileged); err != nil {
		t.Fatal(err)
	}
	fs, err = eng.Eval(context.Background(), in)
	var pe *PartialError
	if !errors.As(err, &pe) || !errors.Is(err, ErrEval) {
		t.Fatalf("err = %v, want a PartialError wrapping ErrEval", err)
	}
	if len(pe.Failures) != 1 || pe.Failures[0].Rule.ID != "zz-conflict" || pe.Failures[0].Rule.Property != "credentials" {
		t.Fatalf("failures = %+v, want zz-conflict alone", pe.Failures)
	}
	for _, want := range []string{"zz-conflict", "rules.zz_conflict", "eval_conflict_error"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if !hasRule(fs, "privileged-container") || hasRule(fs, "zz-conflict") {
		t.Errorf("the area's other rules lost their findings: %v", fs)
	}
}
