package fleet

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// propertyTitles and colours, in rules.Properties order.
var (
	propertyTitles = map[string]string{"disposable": "Disposable", "network": "Constrained network", "credentials": "Minimal credentials", "review": "Reviewed output"}
	propertyColors = map[string]string{"disposable": "#1f6feb", "network": "#d1242f", "credentials": "#1a7f37", "review": "#8250df"}
	// propertyDashes tell the lines apart where they overlap: each is drawn
	// over the ones before it, which show through its gaps.
	propertyDashes = map[string]string{"disposable": "", "network": "10 5", "credentials": "3 5", "review": "14 4 3 4"}
	verdictColors  = map[string]string{"boundary": "#1a7f37", "unknown": "#6e7781", "convenience": "#d1242f", "error": "#bc4c00"}
	verdictOrder   = []string{"boundary", "unknown", "convenience", "error"}
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("fleet").Parse(htmlSource))

type point struct{ X, Y int }

type chartLine struct {
	Key, Title, Color    string
	Dash                 string
	Points               string
	Dots                 []point
	LegendY, LegendTextY int
}

type gridLine struct {
	Y, TextY int
	Label    string
}

type xLabel struct {
	X     int
	Label string
}

type bar struct {
	Verdict, Color                 string
	Count, Y, TextY, Width, LabelX int
	SelfReported                   int
}

type propRate struct{ Key, Title, Rate string }

type historyRow struct {
	Run      int64
	Started  string
	Complete bool
	Rates    []string
}

type htmlData struct {
	*Report
	Props                             []propRate
	Bars                              []bar
	Lines                             []chartLine
	Grid                              []gridLine
	XLabels                           []xLabel
	HistoryRows                       []historyRow
	W, H, BarsH, Left, Right, XLabelY int
	LegendX, LegendTextX              int
	ShownEntries                      int
}

func rate(m map[string]int, p string) string {
	if v, ok := m[p]; ok {
		return fmt.Sprintf("%d%%", v)
	}
	return "-"
}

// WriteHTML writes the report as one self-contained page: inline CSS and
// SVG charts (targets per verdict, pass rate per property over the last
// runs), readable without JavaScript. Every value is escaped.
func (r *Report) WriteHTML(w io.Writer) error {
	d := htmlData{Report: r, W: 760, H: 260, Left: 44, Right: 600, LegendX: 616, LegendTextX: 634, ShownEntries: shownEntries}
	audited := 0
	for v, n := range r.Verdicts {
		if v != "error" {
			audited += n
		}
	}
	for _, p := range rules.Properties {
		pr := propRate{Key: p, Title: propertyTitles[p], Rate: "-"}
		if audited > 0 {
			pr.Rate = rate(r.PassRate, p)
		}
		d.Props = append(d.Props, pr)
	}
	most := 1
	for _, v := range verdictOrder {
		most = max(most, r.Verdicts[v])
	}
	for _, v := range verdictOrder {
		n := r.Verdicts[v]
		y := len(d.Bars) * 26
		b := bar{Verdict: v, Color: verdictColors[v], Count: n, SelfReported: r.SelfReported[v], Y: y + 4, TextY: y + 18, Width: n * 480 / most}
		b.LabelX = 110 + b.Width + 6
		d.Bars = append(d.Bars, b)
	}
	d.BarsH = len(d.Bars)*26 + 8
	top, bottom := 10, d.H-30
	d.XLabelY = d.H - 10
	y := func(pct int) int { return top + (100-pct)*(bottom-top)/100 }
	for _, pct := range []int{0, 25, 50, 75, 100} {
		d.Grid = append(d.Grid, gridLine{Y: y(pct), TextY: y(pct) + 4, Label: fmt.Sprintf("%d%%", pct)})
	}
	n := len(r.History)
	x := func(i int) int {
		if n <= 1 {
			return (d.Left + d.Right) / 2
		}
		return d.Left + 16 + i*(d.Right-d.Left-32)/(n-1)
	}
	for i, h := range r.History {
		d.XLabels = append(d.XLabels, xLabel{X: x(i), Label: fmt.Sprint(h.Run)})
		row := historyRow{Run: h.Run, Started: h.Started, Complete: h.Complete}
		for _, p := range rules.Properties {
			row.Rates = append(row.Rates, rate(h.PassRate, p))
		}
		d.HistoryRows = append(d.HistoryRows, row)
	}
	for k, p := range rules.Properties {
		l := chartLine{Key: p, Title: propertyTitles[p], Color: propertyColors[p], Dash: propertyDashes[p], LegendY: top + k*22, LegendTextY: top + k*22 + 11}
		var pts []string
		for i, h := range r.History {
			v, ok := h.PassRate[p]
			if !ok {
				continue // no target audited in that run
			}
			pt := point{X: x(i), Y: y(v)}
			l.Dots = append(l.Dots, pt)
			pts = append(pts, fmt.Sprintf("%d,%d", pt.X, pt.Y))
		}
		l.Points = strings.Join(pts, " ")
		d.Lines = append(d.Lines, l)
	}
	return htmlTemplate.Execute(w, d)
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown (a job
// summary, an issue comment).
func (r *Report) WriteMarkdown(w io.Writer) error {
	state := "complete"
	if !r.Run.Complete {
		state = "**incomplete**"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## sandbox-audit fleet run %d\n\n%s, %s: %d of %d targets stored\n\n", r.Run.ID, r.Run.Started, state, r.Run.Stored, r.Run.Targets)
	b.WriteString("| Verdict | Targets | Self-reported |\n|---|---:|---:|\n")
	for _, v := range verdictOrder {
		if r.Verdicts[v] > 0 {
			fmt.Fprintf(&b, "| %s | %d | %d |\n", v, r.Verdicts[v], r.SelfReported[v])
		}
	}
	b.WriteString("\n| Property | Pass rate |\n|---|---:|\n")
	for _, p := range rules.Properties {
		fmt.Fprintf(&b, "| %s | %s |\n", propertyTitles[p], rate(r.PassRate, p))
	}
	if len(r.Worst) > 0 {
		b.WriteString("\n### Worst targets\n\n| Target | Verdict | Score (of 400) | Findings | Not read |\n|---|---|---:|---:|---:|\n")
		for _, l := range r.Worst {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", mdCell(l.Label()), l.Verdict, l.Score, l.Findings, l.NotRead)
		}
	}
	if len(r.Rules) > 0 {
		b.WriteString("\n### Most common rules\n\n| Rule | Targets |\n|---|---:|\n")
		for _, c := range r.Rules {
			fmt.Fprintf(&b, "| `%s` | %d |\n", mdCode(c.Rule), c.Targets)
		}
	}
	if len(r.Unread) > 0 {
		fmt.Fprintf(&b, "\n### Not read whole: %d target(s)\n\n", len(r.Unread))
		for _, l := range r.Unread {
			fmt.Fprintf(&b, "- %s: %s\n", mdCell(l.Label()), l.NotReadText())
			for i, e := range l.Entries {
				if i == shownEntries {
					fmt.Fprintf(&b, "  - … and %d more (-f json lists them)\n", len(l.Entries)-i)
					break
				}
				fmt.Fprintf(&b, "  - %s: %s\n", mdCell(e.File), mdCell(e.Message))
			}
		}
	}
	if r.Previous == nil {
		b.WriteString("\nNo earlier run to compare with.\n")
	} else {
		fmt.Fprintf(&b, "\n### Since run %d: %d target(s) changed\n\n", r.Previous.ID, len(r.Changes))
		for _, c := range r.Changes {
			mark := c.Mark()
			if c.Worse {
				mark = "**worse**"
			}
			if c.SourceChanged {
				mark += ", " + mdCell(c.Switch())
			}
			fmt.Fprintf(&b, "- %s (%s): %s → %s, %d new, %d fixed\n", mdCell(c.Label()), mark, c.VerdictWas, c.Verdict, len(c.New), len(c.Fixed))
			for _, f := range c.New {
				fmt.Fprintf(&b, "  - new %s `%s` %s:%d %s\n", mdCell(f.Severity), mdCode(f.Rule), mdCell(f.File), f.Line, mdCell(f.Message))
			}
			for _, f := range c.Fixed {
				fmt.Fprintf(&b, "  - fixed %s `%s` %s:%d %s\n", mdCell(f.Severity), mdCode(f.Rule), mdCell(f.File), f.Line, mdCell(f.Message))
			}
		}
	}
	if len(r.Errors) > 0 {
		b.WriteString("\n### Targets that could not be audited\n\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "- %s: %s\n", mdCell(e.Label()), mdCell(e.Error))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdCell(s string) string { return reports.MarkdownEscape(s) }

// mdCode is a value put between backticks (a rule id).
func mdCode(s string) string { return reports.MarkdownCode(s) }

// WriteSARIF writes the run's findings as SARIF 2.1.0: one run per target
// (category sandbox-audit/fleet/TARGET/), locations relative to the
// target, each rule as the built-in rule set describes it. Findings waived
// in a target, and platform notes, are left out, as in every fleet view;
// a target that failed to audit is a run with that error as a
// notification, and so is each input a target's audit could not read.
// Each run's properties.source says where its result came from: audit, or
// ingest (the sandbox's report of itself).
func (r *Report) WriteSARIF(w io.Writer) error {
	metas := map[string]rules.Meta{}
	if set, err := rules.LoadBuiltinRules(); err == nil {
		for _, m := range set.Rules {
			metas[m.ID] = m
		}
	}
	var ts []reports.SARIFTarget
	for _, id := range sortedTargets(r.results) {
		res := r.results[id]
		rep := &reports.Report{Tool: reports.Tool{Name: "sandbox-audit", Version: r.Version}, Findings: []rules.Finding{}, Errors: []model.Error{}}
		if res.Error != "" {
			rep.Errors = append(rep.Errors, model.Error{Message: res.Error})
		}
		for _, u := range res.Unread {
			rep.Errors = append(rep.Errors, model.Error{File: u.File, Line: u.Line, Kind: u.Kind, Message: u.Message})
		}
		seen := map[string]bool{}
		for _, f := range active(res.Findings) {
			m := metas[f.Rule]
			rep.Findings = append(rep.Findings, rules.Finding{RuleID: f.Rule, Title: m.Title, Property: f.Property, Severity: f.Severity, Category: f.Category,
				Message: f.Message, File: f.File, Line: f.Line, Fingerprint: f.Fingerprint, Remediation: m.Remediation})
			if m.ID != "" && !seen[m.ID] {
				seen[m.ID] = true
				rep.Rules = append(rep.Rules, m)
			}
		}
		ts = append(ts, reports.SARIFTarget{Category: "sandbox-audit/fleet/" + id + "/", Report: rep})
	}
	var b bytes.Buffer
	if err := reports.WriteSARIFRuns(&b, ts); err != nil {
		return err
	}
	// The runs' properties, which reports' SARIF writer does not set:
	// read back, each run is its target's, in order.
	doc, err := sarif.FromBytes(b.Bytes())
	if err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	if len(doc.Runs) != len(ts) {
		return fmt.Errorf("write sarif: %d runs for %d targets", len(doc.Runs), len(ts))
	}
	for i, id := range sortedTargets(r.results) {
		doc.Runs[i].Properties = sarif.Properties{"source": cmp.Or(r.results[id].Source, sourceAudit)}
	}
	if err := doc.PrettyWrite(w); err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	return nil
}
