package policies

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// ApplyWaivers marks findings accepted by an unexpired waiver and returns the
// waivers that have expired: those waive nothing and are reported themselves.
func ApplyWaivers(fs []rules.Finding, ws []Waiver, today time.Time) (expired []Waiver) {
	day := today.Format(time.DateOnly)
	for _, w := range ws {
		if w.Expires != "" && w.Expires < day {
			expired = append(expired, w)
			continue
		}
		for i := range fs {
			if fs[i].Suppression != nil || !w.matches(fs[i]) {
				continue
			}
			fs[i].Suppression = &rules.Suppression{Kind: "waiver", Reason: w.Reason, Expires: w.Expires}
		}
	}
	return expired
}

func (w Waiver) matches(f rules.Finding) bool {
	if w.Rule != "" && w.Rule != f.RuleID {
		return false
	}
	if w.Fingerprint != "" && w.Fingerprint != f.Fingerprint {
		return false
	}
	if w.Path != "" {
		if ok, _ := doublestar.Match(w.Path, f.File); !ok {
			return false
		}
	}
	return true
}

// Baseline is a set of accepted findings: only findings not in it fail the gate.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry identifies one accepted finding.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	RuleID      string `json:"rule_id"`
	File        string `json:"file"`
}

// WriteBaseline writes every current finding to path.
func WriteBaseline(path string, fs []rules.Finding) error {
	b := make([]BaselineEntry, 0, len(fs))
	for _, f := range fs {
		b = append(b, BaselineEntry{Fingerprint: f.Fingerprint, RuleID: f.RuleID, File: f.File})
	}
	return WriteBaselineEntries(path, b)
}

// WriteBaselineEntries writes a baseline of these entries to path (it
// sorts them).
func WriteBaselineEntries(path string, es []BaselineEntry) error {
	b := Baseline{Version: 1, Findings: es}
	if b.Findings == nil {
		b.Findings = []BaselineEntry{}
	}
	sort.Slice(b.Findings, func(i, j int) bool { return b.Findings[i].Fingerprint < b.Findings[j].Fingerprint })
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	return nil
}

// maxBaselineSize bounds a baseline file: a fingerprint, a rule id and a
// path per finding; a million findings fit.
const maxBaselineSize = 256 << 20

// ApplyBaseline marks findings present in the baseline file (a regular
// file, not a symlink, read through the cap and deadline of
// collectors.ReadFile).
func ApplyBaseline(path string, fs []rules.Finding) error {
	b, err := LoadBaseline(path)
	if err != nil {
		return err
	}
	b.Apply(fs)
	return nil
}

// BaselineSet is a baseline file read, to apply to findings (in as many
// calls as they come in).
type BaselineSet struct {
	path  string
	known map[string]bool
}

// LoadBaseline reads the baseline file as ApplyBaseline does.
func LoadBaseline(path string) (*BaselineSet, error) {
	data, err := collectors.ReadFile(context.Background(), path, maxBaselineSize)
	if err != nil {
		return nil, fmt.Errorf("read baseline %s: %s", path, collectors.Reason(err))
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("read baseline %s: %w", path, err)
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("read baseline %s: version %d is not 1", path, b.Version)
	}
	known := map[string]bool{}
	for _, e := range b.Findings {
		known[e.Fingerprint] = true
	}
	return &BaselineSet{path: path, known: known}, nil
}

// Apply marks the findings present in the baseline.
func (b *BaselineSet) Apply(fs []rules.Finding) {
	for i := range fs {
		if fs[i].Suppression == nil && b.known[fs[i].Fingerprint] {
			fs[i].Suppression = &rules.Suppression{Kind: "baseline", Reason: "present in baseline " + b.path}
		}
	}
}
