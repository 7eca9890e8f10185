package policies

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestRegoPolicies runs policies/*_test.rego.
func TestRegoPolicies(t *testing.T) {
	mods := map[string]*ast.Module{}
	entries, _ := fs.Glob(os.DirFS("."), "*.rego")
	for _, e := range entries {
		src, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ast.ParseModuleWithOpts(e, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		mods[e] = m
	}
	ch, err := tester.NewRunner().SetCompiler(ast.NewCompiler().WithCapabilities(rules.Capabilities())).SetModules(mods).RaiseBuiltinErrors(true).RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		if !r.Pass() {
			t.Errorf("%s.%s failed: %v", r.Package, r.Name, r.Error)
		}
	}
	if n < 10 {
		t.Fatalf("ran %d policy tests, want ≥ 10", n)
	}
}

func TestParseConfig(t *testing.T) {
	cases := []struct {
		name, src, wantErr string
	}{
		{"minimal", "version: 1\n", ""},
		{"full", `version: 1
exclude: ["fixtures/**"]
fail_on: medium
require: [credentials, network]
min_score: {network: 80}
strict: true
rule_timeout: 10s
rules:
  host-network: {mode: disabled}
params:
  allowed_egress_domains: [github.com]
probes:
  expect_blocked: ["169.254.169.254:80"]
waivers:
  - rule: egress-unrestricted
    path: "deploy/**"
    reason: legacy staging cluster, tracked in SEC-12
    expires: 2027-03-31
`, ""},
		{"unknown key", "version: 1\nfail_onn: high\n", `unknown key "fail_onn"`},
		{"unknown nested key", "version: 1\nrules:\n  x: {mood: disabled}\n", `unknown key "mood"`},
		{"no version", "fail_on: high\n", "version must be 1"},
		{"bad severity", "version: 1\nfail_on: severe\n", `fail_on "severe"`},
		{"bad property", "version: 1\nrequire: [speed]\n", `require: "speed" is not a property`},
		{"waiver without reason", "version: 1\nwaivers:\n  - rule: host-network\n", "waivers[0] (line 3): reason is required"},
		{"waiver matches nothing", "version: 1\nwaivers:\n  - reason: because\n", "give at least one of rule, path, fingerprint"},
		{"bad date", "version: 1\nwaivers:\n  - rule: x\n    reason: r\n    expires: soon\n", `expires "soon" is not a date`},
		{"bad mode", "version: 1\nrules:\n  x: {mode: maybe}\n", "must be enforced or disabled"},
		{"min score range", "version: 1\nmin_score: {network: 120}\n", "between 0 and 100"},
		{"rule timeout not a duration", "version: 1\nrule_timeout: soon\n", `rule_timeout "soon" is not a positive duration`},
		{"rule timeout not positive", "version: 1\nrule_timeout: 0s\n", `rule_timeout "0s" is not a positive duration`},
		{"strict not a boolean", "version: 1\nstrict: sometimes\n", "line 2: cannot decode !!str into bool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("p.yaml", []byte(c.src))
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, c.wantErr)
			}
		})
	}
}

func finding(rule, file, msg string, line int) rules.Finding {
	return rules.Finding{RuleID: rule, File: file, Message: msg, Line: line, Severity: "high", Property: "network"}
}

func TestFingerprintSurvivesLineMoves(t *testing.T) {
	a := []rules.Finding{finding("r", "f.yaml", "m1", 3), finding("r", "f.yaml", "m2", 9)}
	b := []rules.Finding{finding("r", "f.yaml", "m2", 19), finding("r", "f.yaml", "m1", 13)}
	Fingerprint(a)
	Fingerprint(b)
	fp := func(fs []rules.Finding) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			m[f.Message] = f.Fingerprint
		}
		return m
	}
	if d := cmp.Diff(fp(a), fp(b)); d != "" {
		t.Fatalf("fingerprints moved with lines (-want +got):\n%s", d)
	}
	if a[0].Fingerprint == a[1].Fingerprint {
		t.Fatal("different findings share a fingerprint")
	}
	// Identical findings in one file stay distinct.
	c := []rules.Finding{finding("r", "f", "same", 1), finding("r", "f", "same", 2)}
	Fingerprint(c)
	if c[0].Fingerprint == c[1].Fingerprint {
		t.Fatal("duplicate findings share a fingerprint")
	}
}

func TestWaivers(t *testing.T) {
	today := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	fs := []rules.Finding{finding("host-network", "deploy/a.yaml", "x", 1), finding("host-network", "app/b.yaml", "y", 1), finding("egress-unrestricted", "deploy/a.yaml", "z", 1)}
	Fingerprint(fs)
	ws := []Waiver{
		{Rule: "host-network", Path: "deploy/**", Reason: "staging", Expires: "2026-11-29"}, // last day: still valid
		{Rule: "egress-unrestricted", Reason: "old", Expires: "2026-11-28"},                 // expired
	}
	expired := ApplyWaivers(fs, ws, today)
	got := map[string]bool{}
	for _, f := range fs {
		got[f.RuleID+" "+f.File] = f.Suppression != nil
	}
	want := map[string]bool{"host-network deploy/a.yaml": true, "host-network app/b.yaml": false, "egress-unrestricted deploy/a.yaml": false}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("waived (-want +got):\n%s", d)
	}
	if len(expired) != 1 || expired[0].Rule != "egress-unrestricted" {
		t.Fatalf("expired = %+v", expired)
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	old := []rules.Finding{finding("a", "f", "m1", 1), finding("b", "f", "m2", 2)}
	Fingerprint(old)
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := WriteBaseline(path, old); err != nil {
		t.Fatal(err)
	}
	now := []rules.Finding{finding("a", "f", "m1", 7), finding("c", "f", "new", 8)}
	Fingerprint(now)
	if err := ApplyBaseline(path, now); err != nil {
		t.Fatal(err)
	}
	for _, f := range now {
		if (f.Suppression != nil) != (f.RuleID == "a") {
			t.Errorf("%s: suppression %v", f.RuleID, f.Suppression)
		}
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ApplyBaseline(path, now); err == nil {
		t.Fatal("corrupt baseline accepted")
	}
}

// TestScoreGroupsFindings: findings alike in what the policy scores are
// passed as one group with a count, and count as many findings.
func TestScoreGroupsFindings(t *testing.T) {
	s, err := NewScorer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f := rules.Finding{RuleID: "host-network", Property: "network", Severity: "medium", Category: "posture"}
	var fs []rules.Finding
	for i := range 4 {
		g := f
		g.Line, g.Fingerprint = i+1, strings.Repeat(string(rune('a'+i)), 16)
		fs = append(fs, g)
	}
	waived := f
	waived.Suppression = &rules.Suppression{Kind: "waiver"}
	fs = append(fs, waived)
	res, err := s.Score(context.Background(), fs, map[string]int{"files": 1, "workloads": 1}, nil, nil, Settings{FailOn: "medium"})
	if err != nil {
		t.Fatal(err)
	}
	net := res.Properties["network"]
	if net.Findings != 4 || net.Score != 40 || net.Status != "fail" {
		t.Errorf("network = %+v, want 4 findings, score 40, fail", net)
	}
	if want := []string{"4 finding(s) at or above medium"}; !cmp.Equal(res.Gate.Reasons, want) {
		t.Errorf("reasons = %v, want %v", res.Gate.Reasons, want)
	}
}

func TestStrictAndRuleTimeoutKeys(t *testing.T) {
	c, err := ParseConfig("p.yaml", []byte("version: 1\nstrict: true\nrule_timeout: 1500ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Strict || c.RuleTimeoutOrZero() != 1500*time.Millisecond {
		t.Errorf("strict %v, rule timeout %s", c.Strict, c.RuleTimeoutOrZero())
	}
	c, err = ParseConfig("p.yaml", []byte("version: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Strict || c.RuleTimeoutOrZero() != 0 {
		t.Errorf("defaults: strict %v, rule timeout %s", c.Strict, c.RuleTimeoutOrZero())
	}
}
