package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// SARIF writes SARIF 2.1.0 that GitHub code scanning accepts: every result has
// a physical location with a repo-relative URI and a line ≥ 1, rules carry a
// numeric security-severity, and no array is null. Posture and dependency
// findings go in separate runs with their own automation category so code
// scanning keeps them apart.
type SARIF struct{}

var _ Writer = SARIF{}

// InformationURI is the project's home.
const InformationURI = "https://github.com/sandbox-audit/sandbox-audit"

// securitySeverity maps severities onto GitHub's scale (critical > 9.0,
// high 7.0–8.9, medium 4.0–6.9, low 0.1–3.9).
var securitySeverity = map[string]string{"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "3.0", "info": "0.0"}

var level = map[string]string{"critical": "error", "high": "error", "medium": "warning", "low": "note", "info": "note"}

// Write implements Writer.
func (SARIF) Write(w io.Writer, r *Report) error {
	doc, err := sarif.New(sarif.Version210)
	if err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	var posture, deps []rules.Finding
	for _, f := range r.AllFindings() {
		if f.Category == "dependencies" {
			deps = append(deps, f)
		} else {
			posture = append(posture, f)
		}
	}
	var postureRules, depRules []rules.Meta
	for _, m := range r.Rules {
		if m.Category == "dependencies" {
			depRules = append(depRules, m)
		} else {
			postureRules = append(postureRules, m)
		}
	}
	doc.AddRun(buildRun(r, "sandbox-audit/posture/", postureRules, posture, true))
	if r.Dependencies != nil || len(deps) > 0 {
		doc.AddRun(buildRun(r, "sandbox-audit/deps/", depRules, deps, false))
	}
	if err := doc.PrettyWrite(w); err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	return nil
}

func buildRun(r *Report, category string, metas []rules.Meta, fs []rules.Finding, withErrors bool) *sarif.Run {
	run := sarif.NewRunWithInformationURI("sandbox-audit", InformationURI)
	run.Tool.Driver.WithVersion(r.Tool.Version)
	if sv := strings.TrimPrefix(r.Tool.Version, "v"); isSemver(sv) {
		run.Tool.Driver.WithSemanticVersion(sv)
	}
	run.WithAutomationDetails(sarif.NewRunAutomationDetails().WithID(category))
	run.ColumnKind = "utf16CodeUnits"
	run.Results = []*sarif.Result{}
	index := map[string]uint{}
	for _, m := range metas {
		index[m.ID] = uint(len(run.Tool.Driver.Rules))
		addRule(run, r, m)
	}
	for _, f := range fs {
		if _, ok := index[f.RuleID]; !ok {
			// A finding whose rule was not listed (should not happen): describe it from the finding.
			index[f.RuleID] = uint(len(run.Tool.Driver.Rules))
			addRule(run, r, rules.Meta{ID: f.RuleID, Title: f.Title, Description: f.Title, Property: f.Property, Severity: f.Severity, Remediation: f.Remediation, Category: f.Category})
		}
		run.AddResult(result(f, index[f.RuleID]))
	}
	inv := run.AddInvocation(true)
	if withErrors && len(r.Errors) > 0 {
		for _, e := range r.Errors {
			n := sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(e.File + ": " + e.Message))
			if e.File != "" {
				n.WithLocations([]*sarif.Location{location(e.File, max(e.Line, 1))})
			}
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
		}
	}
	return run
}

func addRule(run *sarif.Run, r *Report, m rules.Meta) {
	rule := run.AddRule(m.ID).
		WithName(ruleName(m.ID)).
		WithShortDescription(sarif.NewMultiformatMessageString(m.Title)).
		WithFullDescription(sarif.NewMultiformatMessageString(clip(m.Description, 1024))).
		WithHelp(sarif.NewMultiformatMessageString(helpText(m)).WithMarkdown(helpMarkdown(m))).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level[m.Severity]))
	if r.HelpBase != "" {
		rule.WithHelpURI(r.HelpBase + m.ID + ".md")
	}
	tags := []string{"security", m.Property}
	if m.Category == "dependencies" {
		tags = append(tags, "dependencies")
	}
	rule.WithProperties(sarif.Properties{
		"tags":              tags,
		"security-severity": securitySeverity[m.Severity],
		"precision":         "high",
		"problem.severity":  problemSeverity(m.Severity),
	})
}

func result(f rules.Finding, idx uint) *sarif.Result {
	res := sarif.NewRuleResult(f.RuleID).
		WithRuleIndex(int(idx)).
		WithLevel(level[f.Severity]).
		WithMessage(sarif.NewTextMessage(f.Message)).
		WithLocations([]*sarif.Location{location(f.File, f.Line)}).
		WithPartialFingerPrints(map[string]interface{}{"sandboxAudit/v1": f.Fingerprint})
	res.Properties = sarif.Properties{"property": f.Property, "severity": f.Severity}
	if s := f.Suppression; s != nil {
		just := s.Kind + ": " + s.Reason
		if s.Expires != "" {
			just += " (expires " + s.Expires + ")"
		}
		status := "accepted"
		guid := guidOf(f.Fingerprint + "/" + s.Kind)
		res.Suppressions = []*sarif.Suppression{{Kind: "external", Status: &status, Justification: &just, Guid: &guid, Location: location(f.File, f.Line)}}
	}
	return res
}

func location(file string, line int) *sarif.Location {
	if line < 1 {
		line = 1
	}
	return sarif.NewLocationWithPhysicalLocation(
		sarif.NewPhysicalLocation().
			WithArtifactLocation(sarif.NewSimpleArtifactLocation(uriOf(file)).WithUriBaseId("%SRCROOT%")).
			WithRegion(sarif.NewSimpleRegion(line, line)))
}

// uriOf escapes a repo-relative path for a URI reference without a scheme.
func uriOf(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "./"), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// guidOf derives a stable name-based (version 5 style) GUID, as SARIF's
// schema requires the RFC 4122 version and variant bits.
func guidOf(s string) string {
	h := sha256.Sum256([]byte(s))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

func ruleName(id string) string {
	var b strings.Builder
	for _, p := range strings.Split(id, "-") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

func problemSeverity(s string) string {
	switch s {
	case "critical", "high":
		return "error"
	case "medium":
		return "warning"
	}
	return "recommendation"
}

func helpText(m rules.Meta) string {
	s := m.Description + "\n\nRemediation: " + m.Remediation
	for _, r := range m.Related {
		s += "\n- " + r.Ref
	}
	return s
}

func helpMarkdown(m rules.Meta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (property: %s, severity: %s)\n\n%s\n\n**Remediation:** %s\n", m.Title, m.Property, m.Severity, m.Description, m.Remediation)
	if len(m.Related) > 0 {
		b.WriteString("\n**References:**\n" + m.ReferencesMarkdown())
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func isSemver(v string) bool {
	parts := strings.SplitN(strings.SplitN(v, "-", 2)[0], ".", 3)
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// SARIFTarget is one target of a multi-target SARIF log: its report, and
// the automation category its run gets.
type SARIFTarget struct {
	Category string
	Report   *Report
}

// WriteSARIFRuns writes one SARIF log holding one posture run per target
// (a fleet's): each run's locations are relative to its own target, and
// its category names the target, so the runs never mix.
func WriteSARIFRuns(w io.Writer, targets []SARIFTarget) error {
	doc, err := sarif.New(sarif.Version210)
	if err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	for _, t := range targets {
		doc.AddRun(buildRun(t.Report, t.Category, t.Report.Rules, t.Report.AllFindings(), true))
	}
	if err := doc.PrettyWrite(w); err != nil {
		return fmt.Errorf("write sarif: %w", err)
	}
	return nil
}
