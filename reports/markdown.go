package reports

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Markdown writes a summary for pull-request comments and
// $GITHUB_STEP_SUMMARY: verdict, properties, the gate and the findings.
type Markdown struct{ Options }

var _ Writer = Markdown{}

var statusIcon = map[string]string{"pass": "✅ pass", "fail": "❌ fail", "unknown": "❔ unknown"}

// Write implements Writer.
func (m Markdown) Write(w io.Writer, r *Report) error {
	o := m.Options
	ew := &errWriter{w: w}
	if o.DepsOnly {
		fmt.Fprintf(ew, "## sandbox-audit: dependency change\n\n%s\n", depsSummary(r.Dependencies))
	} else {
		fmt.Fprintf(ew, "## sandbox-audit: %s\n\n", strings.ToUpper(r.Verdict))
		fmt.Fprintf(ew, "%s\n\n", verdictLine(r, false))
		fmt.Fprintf(ew, "| Property | Status | Score | Findings |\n|---|---|---|---|\n")
		for _, p := range r.Properties.Each() {
			fmt.Fprintf(ew, "| %s | %s | %s | %d |\n", p.Name, statusIcon[p.Status], scoreText(p), p.Findings)
		}
		if len(r.Workloads) > 0 {
			line, show := workloadsLine(r.Workloads)
			fmt.Fprintf(ew, "\n**Workloads:** %s\n", line)
			if show {
				fmt.Fprintf(ew, "\n<details><summary>Which workloads were judged as the agent's sandbox</summary>\n\n| Role | Judged | Workload | Why |\n|---|---|---|---|\n")
				shown := r.Workloads[:min(len(r.Workloads), workloadRows)]
				for _, w := range shown {
					fmt.Fprintf(ew, "| %s | %s | %s `%s:%d` | %s |\n", w.Role, yesNo(w.Judged), MarkdownEscape(workloadName(w)), MarkdownCode(w.File), w.Line, MarkdownEscape(w.Reason))
				}
				if more := len(r.Workloads) - len(shown); more > 0 {
					fmt.Fprintf(ew, "\n… and %d more in the JSON report.\n", more)
				}
				fmt.Fprintf(ew, "\n</details>\n")
			}
		}
		if s := unreadLine(r); s != "" {
			fmt.Fprintf(ew, "\n%s\n", MarkdownEscape(s))
		}
		if s := depsSummary(r.Dependencies); s != "" {
			fmt.Fprintf(ew, "\n**Dependencies:** %s\n", MarkdownEscape(s))
		}
	}
	gate := "✅ passed"
	if !r.Gate.Passed {
		gate = "❌ failed — " + MarkdownEscape(strings.Join(r.Gate.Reasons, "; "))
	}
	fmt.Fprintf(ew, "\n**Gate** (fail-on %s): %s\n", r.Gate.FailOn, gate)
	l := listFindings(r, o.Limit)
	fmt.Fprintf(ew, "\n### Findings (%d)\n\n", l.nAct)
	if l.nAct > 0 {
		fmt.Fprintf(ew, "| Severity | Property | Rule | Location | Message |\n|---|---|---|---|---|\n")
		shown, more := l.act, l.nAct-len(l.act)
		for _, f := range shown {
			fmt.Fprintf(ew, "| %s | %s | `%s` | `%s:%d` | %s |\n", f.Severity, f.Property, f.RuleID, MarkdownCode(f.File), f.Line, MarkdownEscape(f.Message))
		}
		if more > 0 {
			fmt.Fprintf(ew, "\n… and %d more finding(s) in the full report.\n", more)
		}
	}
	if l.nNts > 0 {
		fmt.Fprintf(ew, "\n<details><summary>%d note(s) on workloads that are not the agent's sandbox</summary>\n\n", l.nNts)
		shown, more := l.nts, l.nNts-len(l.nts)
		for _, f := range shown {
			fmt.Fprintf(ew, "- `%s` `%s:%d` — %s\n", f.RuleID, MarkdownCode(f.File), f.Line, MarkdownEscape(f.Message))
		}
		if more > 0 {
			fmt.Fprintf(ew, "- … and %d more\n", more)
		}
		fmt.Fprintf(ew, "\n</details>\n")
	}
	if l.nSup > 0 {
		fmt.Fprintf(ew, "\n<details><summary>%d waived or baselined</summary>\n\n", l.nSup)
		shown, more := l.sup, l.nSup-len(l.sup)
		for _, f := range shown {
			fmt.Fprintf(ew, "- `%s` `%s:%d` — %s: %s\n", f.RuleID, MarkdownCode(f.File), f.Line, f.Suppression.Kind, MarkdownEscape(f.Suppression.Reason))
		}
		if more > 0 {
			fmt.Fprintf(ew, "- … and %d more\n", more)
		}
		fmt.Fprintf(ew, "\n</details>\n")
	}
	if s := skippedLine(r.Skipped); s != "" {
		fmt.Fprintf(ew, "\n%s\n", MarkdownEscape(s))
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(ew, "\n### Not audited (%d)\n\n", len(r.Errors))
		for _, e := range r.Errors {
			fmt.Fprintf(ew, "- `%s`: %s%s\n", MarkdownCode(e.File), MarkdownEscape(e.Message), leaves(e.Properties))
		}
	}
	return ew.err
}

// MarkdownEscape makes a value text wherever it lands (a table cell, a list
// item): the values quote what was scanned, which a pull request or a
// sandbox writes. A line break of any kind (a bare \r starts a CommonMark
// line too) or another control character becomes a space, so no value
// starts a heading or a list; every character that opens a link, an image,
// emphasis, strikethrough, math, code, HTML or a table cell is escaped.
// GitHub finds @mentions in the rendered text, where a backslash is gone:
// a zero-width space follows each @ instead.
func MarkdownEscape(s string) string {
	var b strings.Builder
	for _, r := range Printable(s) {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '@':
			b.WriteString("@\u200b")
		case strings.ContainsRune("[]()!*_~$#|\\`", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MarkdownCode is a value to put between single backticks (a file name):
// no backtick to close the span early, no line break, no pipe to end a
// table cell (GFM reads \| inside a span in a table as one).
func MarkdownCode(s string) string {
	return strings.NewReplacer("`", "'", "|", `\|`).Replace(Printable(s))
}

// Printable is a value as a terminal may show it: every control character
// (C0 and line breaks, DEL, C1, so no escape sequence starts) and every
// bidirectional override becomes a space, and bytes that are not UTF-8
// become U+FFFD (a lone 0x9b is CSI to some terminals).
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || hidden(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hidden: a character that moves the cursor, starts a sequence or reorders
// the text around it rather than showing itself.
func hidden(r rune) bool {
	return unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}
