package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestRuleFailureKeepsTheReport: a rule that fails to evaluate on one part
// of a tree is one errors[] entry naming the rule and the files of the
// parts it failed on (not the others), its property is unknown, the gate is
// incomplete (exit 2), and every finding of the other rules and parts is
// kept.
func TestRuleFailureKeepsTheReport(t *testing.T) {
	for _, fleet := range []bool{false, true} {
		t.Run(map[bool]string{false: "one tree", true: "repositories side by side"}[fleet], func(t *testing.T) {
			ruleFailureKeepsTheReport(t, fleet)
		})
	}
}

func ruleFailureKeepsTheReport(t *testing.T, fleet bool) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// a fails the rule (a service with an image), b does not (a build)
	write("a/compose.yaml", "services:\n  agent:\n    image: node:22\n    privileged: true\n")
	write("b/compose.yaml", "services:\n  agent:\n    build: .\n    privileged: true\n")
	if fleet {
		// checkouts side by side: judged one repository at a time
		write("a/.git/HEAD", "ref: refs/heads/main\n")
		write("b/.git/HEAD", "ref: refs/heads/main\n")
	}
	write("rules/conflict.rego", `# METADATA
# title: Conflicting rule
# description: Gives two values for one key when a workload has an image.
# related_resources:
#   - ref: https://www.openpolicyagent.org/docs/policy-language
# custom:
#   id: team-conflict
#   property: review
#   severity: low
#   remediation: Give each key one value.
package rules.team_conflict

import data.lib.sa

tag := "a" if input.workloads[_].image
tag := "b" if input.workloads[_].image

deny contains sa.finding(rego.metadata.chain(), {"file": "x", "line": 1}, tag)
`)
	ctx := context.Background()
	rulesDir := filepath.Join(root, "rules")
	eng, err := NewEngine(ctx, []string{rulesDir}, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Path: root, RuleDirs: []string{rulesDir}, Exclude: []string{"rules/**"}, Now: time.Now(), partFiles: 1}
	col, err := Collect(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eng.Judge(ctx, col, opt)
	if err != nil {
		t.Fatalf("a rule's failure failed the audit: %v", err)
	}
	var failed []string
	for _, e := range rep.Errors {
		if e.Kind == "rule:review" {
			failed = append(failed, e.File+": "+e.Message)
		}
	}
	if len(failed) != 1 || !strings.HasPrefix(failed[0], "rule/team-conflict: ") ||
		!strings.Contains(failed[0], "eval_conflict_error") || !strings.Contains(failed[0], "a/compose.yaml are missing") ||
		strings.Contains(failed[0], "b/compose.yaml") {
		t.Fatalf("errors[] = %+v", rep.Errors)
	}
	if !rep.Gate.Incomplete || rep.Gate.Passed || rep.Properties.Review.Status != "unknown" {
		t.Errorf("gate %+v, review %+v: want incomplete, review unknown", rep.Gate, rep.Properties.Review)
	}
	privileged := map[string]bool{}
	_ = rep.EachFinding(func(f *rules.Finding) error {
		if f.RuleID == "privileged-container" {
			privileged[f.File] = true
		}
		return nil
	})
	if !privileged["a/compose.yaml"] || !privileged["b/compose.yaml"] {
		t.Errorf("findings of the other rules were lost: %v", privileged)
	}
}
