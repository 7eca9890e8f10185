package audit

import (
	"fmt"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// findingSet holds a scan's findings while its parts are judged. What a
// rule says alike of all its findings (id, title, property, severity,
// category, remediation) is kept once, and each finding keeps its file,
// line and message beside an index into those: a large tree's findings
// (140,000 on the 50,000-file corpus) take a quarter of the room of
// rules.Finding values, and they pile up while the facts not yet judged
// are still held.
type findingSet struct {
	index map[ruleText]int32
	texts []ruleText
	held  []heldFinding
}

// ruleText is every field of a finding but its file, line and message.
// Fingerprint and Suppression are set after the evaluation (rules never
// set them), so they are alike too.
type ruleText struct {
	RuleID, Title, Property, Severity, Category, Remediation, Fingerprint string
	Suppression                                                           *rules.Suppression
}

// heldFinding is one finding as held.
type heldFinding struct {
	text          int32
	line          int
	file, message string
}

func (s *findingSet) add(f rules.Finding) {
	t := ruleText{f.RuleID, f.Title, f.Property, f.Severity, f.Category, f.Remediation, f.Fingerprint, f.Suppression}
	i, ok := s.index[t]
	if !ok {
		if s.index == nil {
			s.index = map[ruleText]int32{}
		}
		i = int32(len(s.texts))
		s.index[t] = i
		s.texts = append(s.texts, t)
	}
	s.held = append(s.held, heldFinding{text: i, line: f.Line, file: f.File, message: f.Message})
}

// findings are the findings added, in order; s is emptied.
func (s *findingSet) findings() []rules.Finding {
	out := make([]rules.Finding, len(s.held))
	for i, h := range s.held {
		t := s.texts[h.text]
		out[i] = rules.Finding{RuleID: t.RuleID, Title: t.Title, Property: t.Property, Severity: t.Severity, Category: t.Category,
			Message: h.message, File: h.file, Line: h.line, Fingerprint: t.Fingerprint, Remediation: t.Remediation, Suppression: t.Suppression}
	}
	*s = findingSet{}
	return out
}

// ruleFailures gathers, per rule, the parts a rule failed to evaluate on.
type ruleFailures struct {
	order []string
	by    map[string]*ruleFailure
}

type ruleFailure struct {
	rules.RuleFailure
	files []string
}

func (r *ruleFailures) add(fs []rules.RuleFailure, part *model.Document) {
	if r.by == nil {
		r.by = map[string]*ruleFailure{}
	}
	for _, f := range fs {
		x := r.by[f.Rule.ID]
		if x == nil {
			x = &ruleFailure{RuleFailure: f}
			r.by[f.Rule.ID] = x
			r.order = append(r.order, f.Rule.ID)
		}
		for _, file := range part.Files {
			x.files = append(x.files, file.Path)
		}
	}
}

// errors are the errors[] entries: file rule/<id> (no file of the tree is
// to blame alone), kind rule:<property> (the property its findings speak
// to is not known), the error redacted (a built-in's error may quote an
// input value) and the files whose facts it could not judge.
func (r *ruleFailures) errors() []model.Error {
	var out []model.Error
	for _, id := range r.order {
		x := r.by[id]
		on := "the facts of " + listFiles(x.files, 3)
		if len(x.files) == 0 {
			on = "this input"
		}
		out = append(out, model.Error{
			File:    "rule/" + id,
			Kind:    "rule:" + x.Rule.Property,
			Message: clipMessage(secrets.Redact(x.Err.Error()), 400) + "; its findings on " + on + " are missing",
		})
	}
	return out
}

// listFiles names up to n files and counts the rest.
func listFiles(files []string, n int) string {
	if len(files) <= n {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:n], ", "), len(files)-n)
}

func clipMessage(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
