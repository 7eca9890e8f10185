package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Report is a fleet run's posture and what changed since the run before it.
type Report struct {
	Run      Run            `json:"run"`
	Previous *Run           `json:"previous,omitempty"`
	Verdicts map[string]int `json:"verdicts"` // targets per verdict ("error": stopped by an error)
	// SelfReported counts, of those, the targets whose result is the
	// sandbox's report of itself (fleet ingest), per verdict.
	SelfReported map[string]int `json:"self_reported"`
	// PassRate is, per property, the share of audited targets (not those
	// stopped by an error) where it passed, in percent.
	PassRate map[string]int `json:"pass_rate"`
	Worst    []TargetLine   `json:"worst"`
	Rules    []RuleCount    `json:"common_rules"`
	Changes  []Change       `json:"changes"`
	Errors   []TargetLine   `json:"errors"`
	// Unread are the targets whose audit could not read everything, each
	// with what it could not read.
	Unread []TargetLine `json:"unread"`
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
	// NotRead counts the inputs its audit could not read (errors[]);
	// Incomplete: its policy is strict, so its gate was left incomplete.
	NotRead    int  `json:"not_read"`
	Incomplete bool `json:"incomplete,omitempty"`
	// Entries are those inputs (in Report.Unread).
	Entries []Unread `json:"entries,omitempty"`
}

// Label names the target, marking a sandbox's report of itself.
func (l TargetLine) Label() string { return label(l.Target, l.Source) }

func label(target, source string) string {
	if source == sourceIngest {
		return target + " (self-reported)"
	}
	return target
}

// NotReadText says what the target's audit did not read, in a few words.
func (l TargetLine) NotReadText() string {
	s := fmt.Sprintf("%d input(s) not read", l.NotRead)
	if l.Incomplete {
		s += "; strict: the gate is incomplete"
	}
	return s
}

// shownEntries is how many of a target's unread inputs the table,
// Markdown and HTML list; the JSON has them all.
const shownEntries = 5

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
	// SourceWas and Source are where each side came from (audit, ingest).
	// SourceChanged: they differ, so the two are no measure of each other:
	// no finding is fixed, and a result now self-reported where it was
	// audited is worse (a sandbox's word never clears an audit's alarm).
	SourceWas     string `json:"source_was,omitempty"`
	Source        string `json:"source,omitempty"`
	SourceChanged bool   `json:"source_changed"`
	// Worse: a new finding, a verdict that got worse, a target that now
	// fails to audit or whose strict gate is now incomplete, or a result
	// now self-reported where it was audited.
	Worse bool `json:"worse"`
}

// Label names the target, marking a sandbox's report of itself.
func (c Change) Label() string { return label(c.Target, c.Source) }

// Mark says how the target changed: worse, better, or, between results of
// different sources, not comparable.
func (c Change) Mark() string {
	switch {
	case c.Worse:
		return "worse"
	case c.SourceChanged:
		return "not comparable"
	}
	return "better"
}

// Switch names a change of source, "audited -> self-reported"; "" when
// there is none.
func (c Change) Switch() string {
	if !c.SourceChanged {
		return ""
	}
	name := map[string]string{sourceAudit: "audited", sourceIngest: "self-reported"}
	return name[c.SourceWas] + " -> " + name[c.Source]
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
	r := &Report{results: res, Run: *cur, Previous: prev, Verdicts: map[string]int{}, SelfReported: map[string]int{}, PassRate: map[string]int{},
		Worst: []TargetLine{}, Rules: []RuleCount{}, Changes: []Change{}, Errors: []TargetLine{}, Unread: []TargetLine{}}
	passed, audited := map[string]int{}, 0
	ruleTargets := map[string]map[string]bool{}
	for _, t := range sortedTargets(res) {
		x := res[t]
		src := ""
		if x.Source == sourceIngest {
			src = sourceIngest
			r.SelfReported[verdictOf(x)]++
		}
		if x.Error != "" {
			r.Verdicts["error"]++
			r.Errors = append(r.Errors, TargetLine{Target: t, Source: src, Error: x.Error})
			continue
		}
		audited++
		r.Verdicts[x.Verdict]++
		line := TargetLine{Target: t, Source: src, Verdict: x.Verdict, Findings: len(active(x.Findings)), NotRead: len(x.Unread), Incomplete: x.Incomplete}
		for _, p := range rules.Properties {
			line.Score += x.Properties[p].Score
			if x.Properties[p].Status == "pass" {
				passed[p]++
			}
		}
		r.Worst = append(r.Worst, line)
		if len(x.Unread) > 0 || x.Incomplete {
			line.Entries = x.Unread
			r.Unread = append(r.Unread, line)
		}
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
			out = append(out, Change{Target: t, VerdictWas: verdictOf(old[t]), SourceWas: old[t].Source, Verdict: "missing", New: []Finding{}, Fixed: []Finding{}, Worse: true})
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
		c.SourceWas, c.Source = o.Source, n.Source
		c.SourceChanged = o.Source != n.Source
		was, is := byFingerprint(active(o.Findings)), byFingerprint(active(n.Findings))
		if n.Error == "" {
			// After an error, every finding is new: nothing was known.
			for fp, f := range is {
				if _, ok := was[fp]; !ok {
					c.New = append(c.New, f)
				}
			}
			// A finding a sandbox no longer reports of itself, or one its
			// own report had and an audit does not find, is not fixed.
			for fp, f := range was {
				if _, ok := is[fp]; !ok && !c.SourceChanged {
					c.Fixed = append(c.Fixed, f)
				}
			}
		}
		sortFindings(c.New)
		sortFindings(c.Fixed)
		c.Worse = len(c.New) > 0 || n.Error != "" && o.Error == "" ||
			(n.Error == "" && o.Error == "" && verdictRank[n.Verdict] > verdictRank[o.Verdict]) ||
			(n.Incomplete && !o.Incomplete && o.Error == "") ||
			(c.SourceChanged && n.Source == sourceIngest)
		if c.Worse || len(c.Fixed) > 0 || c.Verdict != c.VerdictWas || c.SourceChanged {
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
		if !f.Suppressed && f.Category != rules.NoteCategory {
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

// WriteTable writes the report for a terminal. Every value that a target
// or a sandbox wrote (names, files, messages, errors) is shown Printable:
// an ingested report's escape sequences never reach the terminal.
func (r *Report) WriteTable(w io.Writer) error {
	p := reports.Printable
	state := "complete"
	if !r.Run.Complete {
		state = "INCOMPLETE"
	}
	fmt.Fprintf(w, "Fleet run %d (%s, %s): %d of %d targets stored\n", r.Run.ID, r.Run.Started, state, r.Run.Stored, r.Run.Targets)
	var vs []string
	for _, v := range verdictOrder {
		if r.Verdicts[v] > 0 {
			vs = append(vs, fmt.Sprintf("%d %s", r.Verdicts[v], v)+selfReported(r.SelfReported[v]))
		}
	}
	fmt.Fprintf(w, "Verdicts: %s\n", strings.Join(vs, ", "))
	var pr []string
	for _, p := range rules.Properties {
		pr = append(pr, fmt.Sprintf("%s %d%%", p, r.PassRate[p]))
	}
	fmt.Fprintf(w, "Pass rate: %s\n\n", strings.Join(pr, ", "))
	t := tablewriter.NewWriter(w)
	t.Header("Worst targets", "Verdict", "Score (of 400)", "Findings", "Not read")
	for _, l := range r.Worst {
		_ = t.Append(p(l.Label()), l.Verdict, fmt.Sprint(l.Score), fmt.Sprint(l.Findings), fmt.Sprint(l.NotRead))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(r.Rules) > 0 {
		t = tablewriter.NewWriter(w)
		t.Header("Most common rules", "Targets")
		for _, c := range r.Rules {
			_ = t.Append(p(c.Rule), fmt.Sprint(c.Targets))
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if len(r.Unread) > 0 {
		fmt.Fprintf(w, "\nNot read whole: %d target(s)\n", len(r.Unread))
		for _, l := range r.Unread {
			fmt.Fprintf(w, "  %s: %s\n", p(l.Label()), l.NotReadText())
			for i, e := range l.Entries {
				if i == shownEntries {
					fmt.Fprintf(w, "    … and %d more (-f json lists them)\n", len(l.Entries)-i)
					break
				}
				fmt.Fprintf(w, "    %s: %s\n", p(e.File), p(e.Message))
			}
		}
	}
	if r.Previous == nil {
		fmt.Fprintln(w, "\nNo earlier run to compare with.")
	} else {
		fmt.Fprintf(w, "\nSince run %d: %d target(s) changed\n", r.Previous.ID, len(r.Changes))
		for _, c := range r.Changes {
			mark := c.Mark()
			if c.Worse {
				mark = "WORSE"
			}
			if c.SourceChanged {
				mark += ", " + c.Switch()
			}
			fmt.Fprintf(w, "  %s (%s): %s -> %s, %d new, %d fixed\n", p(c.Label()), mark, c.VerdictWas, c.Verdict, len(c.New), len(c.Fixed))
			for _, f := range c.New {
				fmt.Fprintf(w, "    + %-8s %s %s:%d %s\n", p(f.Severity), p(f.Rule), p(f.File), f.Line, p(f.Message))
			}
			for _, f := range c.Fixed {
				fmt.Fprintf(w, "    - %-8s %s %s:%d %s\n", p(f.Severity), p(f.Rule), p(f.File), f.Line, p(f.Message))
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s: %s\n", p(e.Label()), p(e.Error))
	}
	return nil
}

// selfReported marks a count of which n are a sandbox's report of itself.
func selfReported(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d self-reported)", n)
}
