package model

// Error is an entry of the report's errors[]: something that could not be
// read or parsed. The scan goes on; the entry says what was not audited.
//
// A configuration file that could not be audited is no evidence: the
// properties its format speaks to are at best unknown (policies/unread.rego).
// Kind says which format the file was claimed as, so the scoring policy knows
// which properties those are.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	// Kind is the collector that claimed the file (workflows, kubernetes…),
	// KindUnknown when the scan cannot tell what it would have held (a
	// directory it could not list), and empty for entries that are not about
	// a configuration file (the dependency scan, the live audit).
	Kind string `json:"kind,omitempty"`
	// Partial is set when the collector read some facts before it failed:
	// they count (a finding in them still fails its property), but the file
	// was not read whole, so no property passes on it.
	Partial bool `json:"partial,omitempty"`
	// Properties are the properties this entry leaves unknown, as the
	// scoring policy decided from Kind (set by the audit, after scoring).
	Properties []string `json:"properties,omitempty"`
}

// KindUnknown is the Kind of an errors[] entry for something the scan could
// not read far enough to tell its format (an unreadable directory): it may
// have held any configuration, so it leaves every property unknown.
const KindUnknown = "unknown"

// Policy carries facts about the policy file itself to the rules (an expired
// waiver is reported at its line in the policy file).
type Policy struct {
	File           string          `json:"file"`
	ExpiredWaivers []ExpiredWaiver `json:"expired_waivers"`
}

// ExpiredWaiver is a waiver past its expiry date: it waives nothing.
type ExpiredWaiver struct {
	Rule        string `json:"rule"`
	Path        string `json:"path"`
	Fingerprint string `json:"fingerprint"`
	Reason      string `json:"reason"`
	Expires     string `json:"expires"`
	Loc
}
