package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Report is a fleet run's posture and what changed since the run before it.
type Report struct {
	Run      Run            `json:"run"`
	Previous *Run           `json:"previous,omitempty"`
	Verdicts map[string]int `json:"verdicts"` // targets per verdict ("error": stopped by an error)
	// PassRate is, per property, the share of audited targets (not those
	// stopped by an error) where it passed, in percent.
	PassRate map[string]int `json:"pass_rate"`
	Worst    []TargetLine   `json:"worst"`
	Rules    []RuleCount    `json:"common_rules"`
	Changes  []Change       `json:"changes"`
	Errors   []TargetLine   `json:"errors"`
	// History is the posture of the last runs up to this one, oldest first.
	History []RunPoint `json:"history"`
	// Version is the tool's, for the SARIF report.
	Version string `json:"-"`
	results map[string]*Result
}

// historyRuns is how many runs the report's history holds.
const historyRuns = 14

// TargetLine is one target in a list.
type TargetLine struct {
	Target string `json:"target"`
	// Source is "ingest" for a sandbox's report of itself (fleet ingest).
	Source   string `json:"source,omitempty"`
	Verdict  string `json:"verdict,omitempty"`
	Score    int    `json:"score"` // the sum of the four properties' scores
	Findings int    `json:"findings"`
	Error    string `json:"error,omitempty"`
}

// Label names the target, marking a sandbox's report of itself.
func (l TargetLine) Label() string {
	if l.Source == sourceIngest {
		return l.Target + " (self-reported)"
	}
	return l.Target
}

// RuleCount is how many targets a rule fired in.
type RuleCount struct {
	Rule    string `json:"rule_id"`
	Targets int    `json:"targets"`
}

// Change is what changed for one target between the two runs.
type Change struct {
	Target     string    `json:"target"`
	VerdictWas string    `json:"verdict_was,omitempty"`
	Verdict    string    `json:"verdict,omitempty"`
	New        []Finding `json:"new"`
	Fixed      []Finding `json:"fixed"`
	// Worse: a new finding, a verdict that got worse, or a target that now
	// fails to audit.
	Worse bool `json:"worse"`
}

// Build reads run (0: the latest) and, to compare, the stored run before it
// (against: that run instead, when not 0).
func Build(ctx context.Context, st *Store, run, against int64) (*Report, error) {
	runs, err := st.Runs(ctx)
	if err != nil {
		return nil, err
	}
	var cur, prev *Run
	for i := range runs {
		if (run == 0 && cur == nil) || runs[i].ID == run {
			cur = &runs[i]
			if against == 0 && i+1 < len(runs) {
				prev = &runs[i+1]
			}
		}
		if against != 0 && runs[i].ID == against {
			prev = &runs[i]
		}
	}
	if cur == nil || (against != 0 && prev == nil) {
		return nil, fmt.Errorf("%w (the store has %d runs)", ErrNoRun, len(runs))
	}
	res, err := st.Results(ctx, cur.ID)
	if err != nil {
		return nil, err
	}
	r := &Report{results: res, Run: *cur, Previous: prev, Verdicts: map[string]int{}, PassRate: map[string]int{}, Worst: []TargetLine{}, Rules: []RuleCount{}, Changes: []Change{}, Errors: []TargetLine{}}
	passed, audited := map[string]int{}, 0
	ruleTargets := map[string]map[string]bool{}
	for _, t := range sortedTargets(res) {
		x := res[t]
		if x.Error != "" {
			r.Verdicts["error"]++
			r.Errors = append(r.Errors, TargetLine{Target: t, Error: x.Error})
			continue
		}
		audited++
		r.Verdicts[x.Verdict]++
		line := TargetLine{Target: t, Verdict: x.Verdict, Findings: len(active(x.Findings))}
		if x.Source == sourceIngest {
			line.Source = sourceIngest
		}
		for _, p := range rules.Properties {
			line.Score += x.Properties[p].Score
			if x.Properties[p].Status == "pass" {
				passed[p]++
			}
		}
		r.Worst = append(r.Worst, line)
		for _, f := range active(x.Findings) {
			if ruleTargets[f.Rule] == nil {
				ruleTargets[f.Rule] = map[string]bool{}
			}
			ruleTargets[f.Rule][t] = true
		}
	}
	for _, p := range rules.Properties {
		if audited > 0 {
			r.PassRate[p] = passed[p] * 100 / audited
		}
	}
	sort.SliceStable(r.Worst, func(i, j int) bool { return r.Worst[i].Score < r.Worst[j].Score })
	r.Worst = r.Worst[:min(len(r.Worst), 10)]
	for id, ts := range ruleTargets {
		r.Rules = append(r.Rules, RuleCount{Rule: id, Targets: len(ts)})
	}
	sort.Slice(r.Rules, func(i, j int) bool {
		if r.Rules[i].Targets != r.Rules[j].Targets {
			return r.Rules[i].Targets > r.Rules[j].Targets
		}
		return r.Rules[i].Rule < r.Rules[j].Rule
	})
	r.Rules = r.Rules[:min(len(r.Rules), 10)]
	if prev != nil {
		old, err := st.Results(ctx, prev.ID)
		if err != nil {
			return nil, err
		}
		r.Changes = diff(old, res)
	}
	if r.History, err = st.History(ctx, cur.ID, historyRuns); err != nil {
		return nil, err
	}
	return r, nil
}

// verdictRank orders verdicts from best to worst.
var verdictRank = map[string]int{"boundary": 0, "unknown": 1, "convenience": 2}

// diff compares two runs target by target: findings by fingerprint (stable
// across runs: rule, file and message), verdicts by rank. A target in only
// one of the runs is compared with nothing.
func diff(old, cur map[string]*Result) []Change {
	var out []Change
	for _, t := range sortedTargets(old) {
		if cur[t] == nil {
			// Gone from the run (an interrupted run, a changed glob): its
			// findings were not looked at, which is never better.
			out = append(out, Change{Target: t, VerdictWas: verdictOf(old[t]), Verdict: "missing", New: []Finding{}, Fixed: []Finding{}, Worse: true})
		}
	}
	for _, t := range sortedTargets(cur) {
		c := Change{Target: t, New: []Finding{}, Fixed: []Finding{}}
		n := cur[t]
		o := old[t]
		if o == nil {
			continue // a new target: nothing to compare with
		}
		c.VerdictWas, c.Verdict = verdictOf(o), verdictOf(n)
		was, is := byFingerprint(active(o.Findings)), byFingerprint(active(n.Findings))
		if n.Error == "" {
			// After an error, every finding is new: nothing was known.
			for fp, f := range is {
				if _, ok := was[fp]; !ok {
					c.New = append(c.New, f)
				}
			}
			for fp, f := range was {
				if _, ok := is[fp]; !ok {
					c.Fixed = append(c.Fixed, f)
				}
			}
		}
		sortFindings(c.New)
		sortFindings(c.Fixed)
		c.Worse = len(c.New) > 0 || n.Error != "" && o.Error == "" ||
			(n.Error == "" && o.Error == "" && verdictRank[n.Verdict] > verdictRank[o.Verdict])
		if c.Worse || len(c.Fixed) > 0 || c.Verdict != c.VerdictWas {
			out = append(out, c)
		}
	}
	return out
}

func verdictOf(r *Result) string {
	if r.Error != "" {
		return "error"
	}
	return r.Verdict
}

// Regressed reports whether any target got worse.
func (r *Report) Regressed() bool {
	for _, c := range r.Changes {
		if c.Worse {
			return true
		}
	}
	return false
}

func active(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if !f.Suppressed && f.Category != "platform" {
			out = append(out, f)
		}
	}
	return out
}

func byFingerprint(fs []Finding) map[string]Finding {
	m := make(map[string]Finding, len(fs))
	for _, f := range fs {
		m[f.Fingerprint] = f
	}
	return m
}

func sortFindings(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule+a.Fingerprint < b.Rule+b.Fingerprint
	})
}

func sortedTargets(m map[string]*Result) []string {
	ts := make([]string, 0, len(m))
	for t := range m {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	return ts
}

// WriteJSON writes the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the report for a terminal.
func (r *Report) WriteTable(w io.Writer) error {
	state := "complete"
	if !r.Run.Complete {
		state = "INCOMPLETE"
	}
	fmt.Fprintf(w, "Fleet run %d (%s, %s): %d of %d targets stored\n", r.Run.ID, r.Run.Started, state, r.Run.Stored, r.Run.Targets)
	var vs []string
	for _, v := range []string{"boundary", "unknown", "convenience", "error"} {
		if r.Verdicts[v] > 0 {
			vs = append(vs, fmt.Sprintf("%d %s", r.Verdicts[v], v))
		}
	}
	fmt.Fprintf(w, "Verdicts: %s\n", strings.Join(vs, ", "))
	var pr []string
	for _, p := range rules.Properties {
		pr = append(pr, fmt.Sprintf("%s %d%%", p, r.PassRate[p]))
	}
	fmt.Fprintf(w, "Pass rate: %s\n\n", strings.Join(pr, ", "))
	t := tablewriter.NewWriter(w)
	t.Header("Worst targets", "Verdict", "Score (of 400)", "Findings")
	for _, l := range r.Worst {
		_ = t.Append(l.Label(), l.Verdict, fmt.Sprint(l.Score), fmt.Sprint(l.Findings))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(r.Rules) > 0 {
		t = tablewriter.NewWriter(w)
		t.Header("Most common rules", "Targets")
		for _, c := range r.Rules {
			_ = t.Append(c.Rule, fmt.Sprint(c.Targets))
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if r.Previous == nil {
		fmt.Fprintln(w, "\nNo earlier run to compare with.")
	} else {
		fmt.Fprintf(w, "\nSince run %d: %d target(s) changed\n", r.Previous.ID, len(r.Changes))
		for _, c := range r.Changes {
			mark := "better"
			if c.Worse {
				mark = "WORSE"
			}
			fmt.Fprintf(w, "  %s (%s): %s -> %s, %d new, %d fixed\n", c.Target, mark, c.VerdictWas, c.Verdict, len(c.New), len(c.Fixed))
			for _, f := range c.New {
				fmt.Fprintf(w, "    + %-8s %s %s:%d %s\n", f.Severity, f.Rule, f.File, f.Line, f.Message)
			}
			for _, f := range c.Fixed {
				fmt.Fprintf(w, "    - %-8s %s %s:%d %s\n", f.Severity, f.Rule, f.File, f.Line, f.Message)
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s: %s\n", e.Target, e.Error)
	}
	return nil
}
