package model

// Error is an entry of the report's errors[]: something that could not be
// read or parsed. The scan goes on; the entry says what was not audited.
type Error struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

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
