package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Table writes a human-readable report: verdict, the live environment when
// audited, the four properties, findings by severity with file:line, errors,
// and the gate.
type Table struct{ Options }

var _ Writer = Table{}

var ansi = map[string]string{"critical": "\x1b[1;31m", "high": "\x1b[31m", "medium": "\x1b[33m", "low": "\x1b[36m", "info": "\x1b[2m", "fail": "\x1b[31m", "pass": "\x1b[32m", "unknown": "\x1b[33m"}

func paint(on bool, key, s string) string {
	if !on || ansi[key] == "" {
		return s
	}
	return ansi[key] + s + "\x1b[0m"
}

// Write implements Writer.
func (t Table) Write(w io.Writer, r *Report) error {
	o := t.Options
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "sandbox-audit %s — %s\n", r.Tool.Version, Printable(strings.Join(r.Targets, ", ")))
	if !o.DepsOnly {
		fmt.Fprintf(ew, "Verdict: %s\n\n", verdictLine(r, o.Color))
	}
	if r.Environment != nil {
		fmt.Fprintln(ew, "Environment")
		if err := RenderTable(ew, []string{"Check", "Result"}, environmentRows(r.Environment)); err != nil {
			return err
		}
		fmt.Fprintln(ew)
	}
	var rows [][]string
	if !o.DepsOnly {
		for _, p := range r.Properties.Each() {
			rows = append(rows, []string{p.Name, paint(o.Color, p.Status, strings.ToUpper(p.Status)), scoreText(p), fmt.Sprint(p.Findings)})
		}
		if err := RenderTable(ew, []string{"Property", "Status", "Score", "Findings"}, rows); err != nil {
			return err
		}
		if s := unreadLine(r); s != "" {
			fmt.Fprintln(ew, s)
		}
	}
	if len(r.Workloads) > 0 && !o.DepsOnly {
		line, show := workloadsLine(r.Workloads)
		fmt.Fprintf(ew, "\nWorkloads: %s\n", line)
		if show {
			rows = rows[:0]
			shown := r.Workloads[:min(len(r.Workloads), workloadRows)]
			for _, w := range shown {
				rows = append(rows, []string{w.Role, yesNo(w.Judged), Printable(fmt.Sprintf("%s (%s:%d)", workloadName(w), w.File, w.Line)), Printable(w.Reason)})
			}
			if err := RenderTable(ew, []string{"Role", "Judged", "Workload", "Why"}, rows); err != nil {
				return err
			}
			if more := len(r.Workloads) - len(shown); more > 0 {
				fmt.Fprintf(ew, "… and %d more workload(s) in the JSON report\n", more)
			}
		}
	}
	l := listFindings(r, o.Limit)
	fmt.Fprintf(ew, "\nFindings: %d", l.nAct)
	if l.nSup > 0 {
		fmt.Fprintf(ew, " (+%d waived or in baseline)", l.nSup)
	}
	fmt.Fprintln(ew)
	if l.nAct > 0 {
		shown, more := l.act, l.nAct-len(l.act)
		rows = rows[:0]
		for _, f := range shown {
			rows = append(rows, []string{paint(o.Color, f.Severity, strings.ToUpper(f.Severity)), f.Property, f.RuleID, Printable(fmt.Sprintf("%s:%d", f.File, f.Line)), Printable(f.Message)})
		}
		if err := RenderTable(ew, []string{"Severity", "Property", "Rule", "Location", "Message"}, rows); err != nil {
			return err
		}
		if more > 0 {
			fmt.Fprintf(ew, "… and %d more finding(s) in the full report\n", more)
		}
	}
	if l.nNts > 0 {
		fmt.Fprintf(ew, "\nNotes on workloads that are not the agent's sandbox (%d, no property counts them):\n", l.nNts)
		shown, more := l.nts, l.nNts-len(l.nts)
		rows = rows[:0]
		for _, f := range shown {
			rows = append(rows, []string{f.RuleID, Printable(fmt.Sprintf("%s:%d", f.File, f.Line)), Printable(f.Message)})
		}
		if err := RenderTable(ew, []string{"Rule", "Location", "Note"}, rows); err != nil {
			return err
		}
		if more > 0 {
			fmt.Fprintf(ew, "… and %d more note(s) in the full report\n", more)
		}
	}
	if s := depsSummary(r.Dependencies); s != "" {
		fmt.Fprintf(ew, "\nDependencies: %s\n", s)
	}
	if s := skippedLine(r.Skipped); s != "" {
		fmt.Fprintf(ew, "\n%s\n", s)
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(ew, "\nNot audited (%d):\n", len(r.Errors))
		for _, e := range r.Errors {
			loc := e.File
			if e.Line > 0 {
				loc = fmt.Sprintf("%s:%d", e.File, e.Line)
			}
			fmt.Fprintf(ew, "  %s: %s%s\n", Printable(loc), Printable(e.Message), leaves(e.Properties))
		}
	}
	fmt.Fprintf(ew, "\nGate: %s\n", gateLine(r))
	return ew.err
}

func verdictLine(r *Report, color bool) string {
	switch r.Verdict {
	case "boundary":
		return paint(color, "pass", "BOUNDARY") + " — all four properties hold"
	case "convenience":
		var failing []string
		for _, p := range r.Properties.Each() {
			if p.Status == "fail" {
				failing = append(failing, p.Key)
			}
		}
		return paint(color, "fail", "CONVENIENCE") + " — not a security boundary (fails: " + strings.Join(failing, ", ") + ")"
	}
	var nothing, unread []string
	for _, p := range r.Properties.Each() {
		switch {
		case p.Status != "unknown":
		case len(p.Unread) > 0:
			unread = append(unread, p.Key)
		default:
			nothing = append(nothing, p.Key)
		}
	}
	var why []string
	if len(nothing) > 0 {
		why = append(why, "nothing found to judge: "+strings.Join(nothing, ", "))
	}
	if len(unread) > 0 {
		why = append(why, "not all read: "+strings.Join(unread, ", "))
	}
	return paint(color, "unknown", "UNKNOWN") + " — " + strings.Join(why, "; ")
}

func scoreText(p NamedProperty) string {
	if p.Status == "unknown" {
		return "-"
	}
	return fmt.Sprint(p.Score)
}

func gateLine(r *Report) string {
	if r.Gate.Passed {
		return "passed (fail-on " + r.Gate.FailOn + ")"
	}
	return "FAILED — " + strings.Join(r.Gate.Reasons, "; ")
}

// RenderTable renders rows under a header. The last column takes the long
// text (messages, results) and wraps at 80 characters; the others stay whole.
func RenderTable(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithRowAutoWrap(tw.WrapNormal),
		tablewriter.WithHeaderAutoFormat(tw.Off),
	)
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Row.ColMaxWidths.PerColumn = tw.NewMapper[int, int]().Set(len(header)-1, 80)
	})
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	return nil
}

// errWriter keeps the first write error so rendering code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
