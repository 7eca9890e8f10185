package audit

import "github.com/sandbox-audit/sandbox-audit/rules"

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
