package audit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestFindingStore: findings settled and stored a group of files at a
// time come out of the store as a whole scan's settled and sorted list
// (settle, reports.SortFindings): same values, same order, identical
// findings of one file numbered alike, waivers applied.
func TestFindingStore(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sev := []string{"critical", "high", "medium", "low", "info"}
	var groups [][]rules.Finding
	for g := range 40 {
		var fs []rules.Finding
		for range r.IntN(60) {
			id := r.IntN(6)
			f := rules.Finding{RuleID: fmt.Sprintf("rule-%d", id), Title: fmt.Sprintf("Title %d", id), Property: "network",
				Severity: sev[(id+r.IntN(2))%len(sev)], Category: "posture", Remediation: fmt.Sprintf("fix %d", id),
				File: fmt.Sprintf("repo-%02d/f%d.yaml", g, r.IntN(4)), Line: r.IntN(5), Message: fmt.Sprintf("message %d of %d", r.IntN(3), id)}
			fs = append(fs, f)
		}
		groups = append(groups, fs)
	}
	cfg := &policies.Config{Waivers: []policies.Waiver{{Rule: "rule-2", Reason: "accepted"}, {Path: "repo-03/**", Reason: "vendored", Expires: "2999-01-01"}}}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var all []rules.Finding
	for _, g := range groups {
		all = append(all, slices.Clone(g)...)
	}
	want, err := settle(all, cfg, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	reports.SortFindings(want)
	for _, size := range []int{0, 1, 100} {
		s := &findingStore{blockSize: size}
		for _, g := range groups {
			fs := slices.Clone(g)
			policies.Fingerprint(fs)
			policies.ApplyWaivers(fs, cfg.Waivers, now)
			s.add(fs)
		}
		s.finish()
		rep := &reports.Report{Stored: s}
		got := rep.AllFindings()
		if len(got) != len(want) || s.Len() != len(want) {
			t.Fatalf("block size %d: %d findings (Len %d), want %d", size, len(got), s.Len(), len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("block size %d: stored findings differ from the whole list settled and sorted (-want +got):\n%s", size, diff)
		}
		// read twice: the block cache serves the second
		if diff := cmp.Diff(want, rep.AllFindings()); diff != "" {
			t.Errorf("block size %d, read again (-want +got):\n%s", size, diff)
		}
	}
	if len(want) < 500 || !slices.ContainsFunc(want, func(f rules.Finding) bool { return f.Suppression != nil }) ||
		!slices.ContainsFunc(want, func(f rules.Finding) bool { return len(f.Fingerprint) > 16 }) {
		t.Fatalf("the test's findings lack suppressed or numbered ones (%d findings)", len(want))
	}
}

// TestFindingStoreOtherFingerprint: a fingerprint policies.Fingerprint
// did not give is kept as it is.
func TestFindingStoreOtherFingerprint(t *testing.T) {
	fs := []rules.Finding{
		{RuleID: "r", Severity: "high", File: "a", Message: "m", Fingerprint: "not-a-hash"},
		{RuleID: "r", Severity: "high", File: "a", Line: 2, Message: "m", Fingerprint: policies.FingerprintN("r", "a", "m", 3)},
		{RuleID: "r", Severity: "high", File: "a", Line: 3, Message: "m"},
	}
	s := &findingStore{}
	s.add(slices.Clone(fs))
	s.finish()
	if diff := cmp.Diff(fs, (&reports.Report{Stored: s}).AllFindings()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
