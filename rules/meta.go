package rules

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Meta is a rule's METADATA: the one source of its id, severity, property,
// texts and links. Go keeps no table of its own.
type Meta struct {
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Property    string     `json:"property"`
	Severity    string     `json:"severity"`
	Category    string     `json:"category"`
	Remediation string     `json:"remediation"`
	Related     []Resource `json:"related_resources"`
	Package     string     `json:"package"`
	File        string     `json:"file"`
	Builtin     bool       `json:"builtin"`
	// DefaultMode is enforced, or disabled for a rule that runs only when
	// the policy file sets its mode to enforced (custom.default_mode).
	DefaultMode string `json:"default_mode"`
}

// Resource is a related_resources entry.
type Resource struct {
	Ref         string `json:"ref"`
	Description string `json:"description,omitempty"`
}

// Properties are the four properties of a sandbox that is a boundary.
var Properties = []string{"disposable", "network", "credentials", "review"}

// Severities from most to least severe.
var Severities = []string{"critical", "high", "medium", "low", "info"}

// Categories are a rule's categories; a note on a workload that is not the
// agent's sandbox has NoteCategory (lib.sa.note).
var Categories = []string{"posture", "dependencies"}

// NoteCategory is the category of a note (rules/lib/sa.rego).
const NoteCategory = "platform"

// SeverityRank orders severities: critical 4 … info 0, unknown -1.
func SeverityRank(s string) int {
	for i, v := range Severities {
		if v == s {
			return len(Severities) - 1 - i
		}
	}
	return -1
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidID reports whether id has the form of a rule id (lower-case words
// joined by hyphens).
func ValidID(id string) bool { return idPattern.MatchString(id) }

// metaOf reads and validates the package-scoped METADATA of a rule module.
func metaOf(m *ast.Module, file string) (Meta, error) {
	var a *ast.Annotations
	for _, x := range m.Annotations {
		if x.Scope == "package" {
			a = x
			break
		}
	}
	md := Meta{Package: strings.TrimPrefix(m.Package.Path.String(), "data."), File: file}
	if a == nil {
		return md, fmt.Errorf("%s: rule package %s has no METADATA block above its package line (see docs/writing-rules.md)", file, md.Package)
	}
	md.Title = a.Title
	md.Description = strings.TrimSpace(a.Description)
	for _, r := range a.RelatedResources {
		if r.Ref.String() != "" {
			md.Related = append(md.Related, Resource{Ref: r.Ref.String(), Description: r.Description})
		}
	}
	str := func(k string) string {
		v, _ := a.Custom[k].(string)
		return v
	}
	md.ID, md.Property, md.Severity, md.Remediation, md.Category = str("id"), str("property"), str("severity"), str("remediation"), str("category")
	if md.Category == "" {
		md.Category = "posture"
	}
	md.DefaultMode = str("default_mode")
	if md.DefaultMode == "" {
		md.DefaultMode = "enforced"
	}
	var missing []string
	for k, v := range map[string]string{"title": md.Title, "description": md.Description, "custom.id": md.ID, "custom.property": md.Property, "custom.severity": md.Severity, "custom.remediation": md.Remediation} {
		if v == "" {
			missing = append(missing, k)
		}
	}
	if len(md.Related) == 0 {
		missing = append(missing, "related_resources")
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return md, fmt.Errorf("%s: METADATA of %s lacks %s", file, md.Package, strings.Join(missing, ", "))
	}
	if !idPattern.MatchString(md.ID) {
		return md, fmt.Errorf("%s: custom.id %q must be kebab-case", file, md.ID)
	}
	if want := "rules." + strings.ReplaceAll(md.ID, "-", "_"); md.Package != want {
		return md, fmt.Errorf("%s: package must be %s for id %s", file, want, md.ID)
	}
	okProp := false
	for _, p := range Properties {
		okProp = okProp || p == md.Property
	}
	if !okProp {
		return md, fmt.Errorf("%s: custom.property %q is not one of %s", file, md.Property, strings.Join(Properties, ", "))
	}
	if SeverityRank(md.Severity) < 0 {
		return md, fmt.Errorf("%s: custom.severity %q is not one of %s", file, md.Severity, strings.Join(Severities, ", "))
	}
	if md.DefaultMode != "enforced" && md.DefaultMode != "disabled" {
		return md, fmt.Errorf("%s: custom.default_mode %q must be enforced or disabled", file, md.DefaultMode)
	}
	if !slices.Contains(Categories, md.Category) {
		return md, fmt.Errorf("%s: custom.category %q must be posture or dependencies", file, md.Category)
	}
	return md, nil
}

// ReferencesMarkdown lists the related resources as Markdown links, one per
// line, for the rule docs and SARIF's help.
func (m Meta) ReferencesMarkdown() string {
	var b strings.Builder
	for _, r := range m.Related {
		d := r.Description
		if d == "" {
			d = r.Ref
		}
		fmt.Fprintf(&b, "- [%s](%s)\n", d, r.Ref)
	}
	return b.String()
}
