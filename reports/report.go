// Package reports renders a scan's result as a table, JSON, SARIF or
// Markdown. Each format is one Writer; an unknown format is an error.
package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Report is the JSON output contract (DESIGN.md) and what every format renders.
type Report struct {
	Tool        Tool          `json:"tool"`
	Targets     []string      `json:"targets"`
	Verdict     string        `json:"verdict"`
	Properties  Properties    `json:"properties"`
	Gate        policies.Gate `json:"gate"`
	Environment *model.Live   `json:"environment,omitempty"`
	// Repository is what GitHub's API said of the repository (scan --github).
	Repository *model.Repository `json:"repository,omitempty"`
	// Workloads are the containers the scan read, with the role it gave
	// each (agent, platform, unknown) and whether the sandbox rules judged it.
	Workloads    []Workload      `json:"workloads"`
	Findings     []rules.Finding `json:"findings"`
	Errors       []model.Error   `json:"errors"`
	Dependencies *model.Deps     `json:"dependencies,omitempty"`
	// Skipped are the Kubernetes objects read but not audited as workloads,
	// grouped by apiVersion, kind and reason, and the files of other
	// formats read but not audited (with a format: a Cursor cloud agent's
	// environment).
	Skipped []model.SkippedObject `json:"skipped"`

	// Stored, when set, holds the findings instead of Findings: a large
	// scan's, kept compact until they are written. Writers read the
	// findings through EachFinding.
	Stored FindingStore `json:"-"`

	// Rules are the loaded rules' METADATA, for SARIF's rule list and help.
	Rules []rules.Meta `json:"-"`
	// HelpBase is the URL prefix of the rule docs (helpUri = HelpBase + id + ".md").
	HelpBase string `json:"-"`
}

// FindingStore holds a report's findings in order.
type FindingStore interface {
	Len() int
	// Each calls fn with each finding in order; f is only valid during
	// the call. fn's error stops it and is returned.
	Each(fn func(f *rules.Finding) error) error
}

// NumFindings is how many findings the report has.
func (r *Report) NumFindings() int {
	if r.Stored != nil {
		return r.Stored.Len()
	}
	return len(r.Findings)
}

// EachFinding calls fn with each finding in order (Findings, or Stored);
// f is only valid during the call.
func (r *Report) EachFinding(fn func(f *rules.Finding) error) error {
	if r.Stored != nil {
		return r.Stored.Each(fn)
	}
	for i := range r.Findings {
		if err := fn(&r.Findings[i]); err != nil {
			return err
		}
	}
	return nil
}

// AllFindings are the report's findings as one list (Stored's copied out).
func (r *Report) AllFindings() []rules.Finding {
	if r.Stored == nil {
		return r.Findings
	}
	out := make([]rules.Finding, 0, r.Stored.Len())
	_ = r.Stored.Each(func(f *rules.Finding) error {
		out = append(out, *f)
		return nil
	})
	return out
}

// Options are how a writer renders a report: none of them is part of the
// result.
type Options struct {
	// Color enables ANSI colors in the table.
	Color bool
	// Limit, when set, lists only the first Limit active findings (by
	// severity) in the table and Markdown, and counts the rest: what a
	// summary beside the full report shows. GitHub refuses a step summary
	// over 1 MiB, and 19,000 table rows on stderr are no summary.
	Limit int
	// DepsOnly renders a dependency-only report (the deps command): no
	// sandbox was audited, so the table and Markdown leave out verdict and
	// properties.
	DepsOnly bool
}

// Tool names the producer.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Properties keeps the four properties in the contract's order.
type Properties struct {
	Disposable  policies.Property `json:"disposable"`
	Network     policies.Property `json:"network"`
	Credentials policies.Property `json:"credentials"`
	Review      policies.Property `json:"review"`
}

// PropertiesFrom orders a policy result's properties; an unread list is
// never null.
func PropertiesFrom(m map[string]policies.Property) Properties {
	get := func(k string) policies.Property {
		p := m[k]
		if p.Unread == nil {
			p.Unread = []string{}
		}
		return p
	}
	return Properties{Disposable: get("disposable"), Network: get("network"), Credentials: get("credentials"), Review: get("review")}
}

// Each returns the properties with their names, in order.
func (p Properties) Each() []NamedProperty {
	return []NamedProperty{{"disposable", "Disposable", p.Disposable}, {"network", "Constrained network", p.Network}, {"credentials", "Minimal credentials", p.Credentials}, {"review", "Reviewed output", p.Review}}
}

// NamedProperty is a property with its key and display name.
type NamedProperty struct {
	Key, Name string
	policies.Property
}

// Writer renders a report.
type Writer interface {
	Write(w io.Writer, r *Report) error
}

// Formats lists the accepted --format values.
var Formats = []string{"table", "json", "sarif", "markdown"}

// New returns the writer for a format name, rendering with opt.
func New(format string, opt Options) (Writer, error) {
	switch format {
	case "table":
		return Table{opt}, nil
	case "json":
		return JSON{}, nil
	case "sarif":
		return SARIF{}, nil
	case "markdown", "md":
		return Markdown{opt}, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// unreadLine says in one line which properties are unknown because of what
// was not read, and what that was: "Unknown, not read: network, credentials
// ← k8s/pod.yaml, .mcp.json". Empty when everything asked for was read.
func unreadLine(r *Report) string {
	var props, srcs []string
	seen := map[string]bool{}
	for _, p := range r.Properties.Each() {
		if p.Status != "unknown" || len(p.Unread) == 0 {
			continue
		}
		props = append(props, p.Key)
		for _, s := range p.Unread {
			if !seen[s] {
				seen[s] = true
				srcs = append(srcs, s)
			}
		}
	}
	if len(props) == 0 {
		return ""
	}
	more := ""
	if len(srcs) > 3 {
		more = fmt.Sprintf(" and %d more", len(srcs)-3)
		srcs = srcs[:3]
	}
	return "Unknown, not read: " + strings.Join(props, ", ") + " ← " + strings.Join(srcs, ", ") + more
}

// leaves names the properties an errors[] entry keeps from passing.
func leaves(props []string) string {
	if len(props) == 0 {
		return ""
	}
	return " [unread for: " + strings.Join(props, ", ") + "]"
}

// SortFindings orders findings by severity (worst first), then file and line.
func SortFindings(fs []rules.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := rules.SeverityRank(a.Severity), rules.SeverityRank(b.Severity); ra != rb {
			return ra > rb
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.RuleID < b.RuleID
	})
}

// listed are a report's findings as the table and Markdown list them:
// the active ones (not waived or baselined), the notes about workloads
// that are not the agent's sandbox (category platform: they speak for no
// property, and are listed apart) and the suppressed ones, each list with
// its first n findings (all when n is 0) and how many there are. A large
// scan's findings are tens of megabytes, and a summary lists only the
// first few: the lists point into the report's Findings, or hold copies
// of the few shown of Stored.
type listed struct {
	act, nts, sup    []*rules.Finding
	nAct, nNts, nSup int
}

func listFindings(r *Report, n int) listed {
	var l listed
	keep := func(list *[]*rules.Finding, count *int, f *rules.Finding) {
		*count++
		if n > 0 && len(*list) >= n {
			return
		}
		if r.Stored != nil {
			c := *f
			f = &c
		}
		*list = append(*list, f)
	}
	_ = r.EachFinding(func(f *rules.Finding) error {
		switch {
		case f.Suppression != nil:
			keep(&l.sup, &l.nSup, f)
		case f.Category == rules.NoteCategory:
			keep(&l.nts, &l.nNts, f)
		default:
			keep(&l.act, &l.nAct, f)
		}
		return nil
	})
	return l
}

// skippedLine summarizes the Kubernetes objects not read as workloads in one
// line: the kinds by count, largest first, each with its reason unless it
// simply holds no pod spec; "" when there are none.
//
// Files of other formats read but not audited (a Cursor cloud agent's
// environment: a SkippedObject with a Format) follow, one line each.
func skippedLine(all []model.SkippedObject) string {
	var sk []model.SkippedObject
	var other []string
	for _, s := range all {
		if s.Format != "" {
			other = append(other, fmt.Sprintf("Read, not audited: %s %s (%s)", s.Kind, Printable(s.File), s.Reason))
			continue
		}
		sk = append(sk, s)
	}
	k8s := kubernetesLine(sk)
	if k8s != "" {
		other = append([]string{k8s}, other...)
	}
	return strings.Join(other, "\n")
}

func kubernetesLine(sk []model.SkippedObject) string {
	if len(sk) == 0 {
		return ""
	}
	type group struct {
		kind, reason string
		count        int
	}
	var gs []group
	at := map[[2]string]int{}
	total := 0
	for _, s := range sk {
		total += s.Count
		k := [2]string{s.Kind, s.Reason}
		if i, ok := at[k]; ok {
			gs[i].count += s.Count
			continue
		}
		at[k] = len(gs)
		gs = append(gs, group{s.Kind, s.Reason, s.Count})
	}
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].count > gs[j].count })
	const shown = 8
	var parts []string
	for i, g := range gs {
		if i == shown {
			parts = append(parts, fmt.Sprintf("%d more kinds", len(gs)-shown))
			break
		}
		p := fmt.Sprintf("%s ×%d", g.kind, g.count)
		if g.reason != "holds no pod spec" {
			p += " (" + g.reason + ")"
		}
		parts = append(parts, p)
	}
	noun := "objects not read as workloads"
	if total == 1 {
		noun = "object not read as a workload"
	}
	return fmt.Sprintf("%d Kubernetes %s: %s", total, noun, strings.Join(parts, ", "))
}
