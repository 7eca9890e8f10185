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

	// Rules are the loaded rules' METADATA, for SARIF's rule list and help.
	Rules []rules.Meta `json:"-"`
	// HelpBase is the URL prefix of the rule docs (helpUri = HelpBase + id + ".md").
	HelpBase string `json:"-"`
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

// active returns findings that count (not waived or baselined). The lists
// point into fs: a large scan's findings are tens of megabytes, and the
// table and Markdown reports list only the first few.
func active(fs []rules.Finding) (act, suppressed []*rules.Finding) {
	for i := range fs {
		if fs[i].Suppression != nil {
			suppressed = append(suppressed, &fs[i])
		} else {
			act = append(act, &fs[i])
		}
	}
	return act, suppressed
}

// notes splits the notes about workloads that are not the agent's sandbox
// (category platform) from the findings: they are listed apart, since they
// speak for no property.
func notes(fs []*rules.Finding) (findings, notes []*rules.Finding) {
	for _, f := range fs {
		if f.Category == rules.NoteCategory {
			notes = append(notes, f)
		} else {
			findings = append(findings, f)
		}
	}
	return findings, notes
}

// limit returns the first n findings (all when n is 0) and how many are left out.
func limit(fs []*rules.Finding, n int) ([]*rules.Finding, int) {
	if n <= 0 || len(fs) <= n {
		return fs, 0
	}
	return fs[:n], len(fs) - n
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
