package deps

import (
	"strings"
	"testing"

	"github.com/aquasecurity/trivy-db/pkg/db"
	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestMatch runs trivy's drivers on the fixture database: each ecosystem's
// version semantics decide, vulnerable versions match and fixed ones not.
func TestMatch(t *testing.T) {
	d := &model.Deps{}
	dbMu.Lock()
	v, err := openDB(fixtureDB(t), d)
	if err != nil || v == nil {
		dbMu.Unlock()
		t.Fatalf("open: %v (%s)", err, d.DBStatus)
	}
	t.Cleanup(func() { db.Close(); dbMu.Unlock() })
	tests := []struct {
		eco, name, version string
		want               string // matched ids, "" for none
	}{
		// npm semver: ranges joined with ||, prereleases ordered before the release.
		{ecoNPM, "lodash", "4.17.20", "CVE-2021-23337"},
		{ecoNPM, "lodash", "4.17.21", ""},
		{ecoNPM, "lodash", "4.17.22", ""},
		{ecoNPM, "minimist", "0.2.3", "CVE-2021-44906"},
		{ecoNPM, "minimist", "0.2.4", ""},
		{ecoNPM, "minimist", "0.2.5", ""},
		{ecoNPM, "minimist", "1.0.0", "CVE-2021-44906"},
		{ecoNPM, "minimist", "1.2.5", "CVE-2021-44906"},
		{ecoNPM, "minimist", "1.2.6", ""},
		{ecoNPM, "@babel/traverse", "8.0.0-alpha.3", "CVE-2023-45133"},
		{ecoNPM, "@babel/traverse", "8.0.0-alpha.4", ""},
		{ecoNPM, "@babel/traverse", "7.23.2", ""},
		// Go: v-prefixed module versions, pseudo-versions.
		{ecoGo, "golang.org/x/text", "v0.3.7", "CVE-2022-32149"},
		{ecoGo, "golang.org/x/text", "v0.3.8", ""},
		{ecoGo, "golang.org/x/text", "v0.0.0-20170915032832-14c0d48ead0c", "CVE-2022-32149"},
		{ecoGo, "golang.org/x/text", "v0.14.0", ""},
		{ecoGo, "github.com/gin-gonic/gin", "v1.9.0", "CVE-2023-29401"},
		{ecoGo, "github.com/gin-gonic/gin", "v1.9.1", ""},
		// PEP 440: names normalized, several ranges, "4.2" == "4.2.0".
		{ecoPyPI, "requests", "2.30.0", "CVE-2023-32681"},
		{ecoPyPI, "requests", "2.31.0", ""},
		{ecoPyPI, "requests", "2.2.1", ""},
		{ecoPyPI, "Django", "4.2", "CVE-2023-36053"},
		{ecoPyPI, "django", "4.1.9", "CVE-2023-36053"},
		{ecoPyPI, "django", "4.1.10", ""},
		{ecoPyPI, "django", "4.2.3", ""},
		{ecoPyPI, "django", "3.2.19", "CVE-2023-36053"},
		{ecoPyPI, "django", "5.0", ""},
		// Cargo: patched and unaffected ranges (RustSec style).
		{ecoCargo, "time", "0.2.22", "RUSTSEC-2020-0071"},
		{ecoCargo, "time", "0.2.23", ""},
		{ecoCargo, "time", "0.2.6", ""},
		{ecoCargo, "time", "0.1.44", "RUSTSEC-2020-0071"},
		{ecoCargo, "time", "0.3.0", ""},
		{ecoCargo, "smallvec", "1.5.0", "RUSTSEC-2021-0003"},
		{ecoCargo, "smallvec", "1.6.1", ""},
		{ecoCargo, "smallvec", "1.3.0", ""},
		// No advisory, no version, no driver.
		{ecoNPM, "left-pad", "1.3.0", ""},
		{ecoNPM, "lodash", "", ""},
		{"swift", "lodash", "1.0.0", ""},
	}
	for _, tt := range tests {
		vs, err := v.match(tt.eco, tt.name, tt.version)
		if err != nil {
			t.Errorf("%s %s@%s: %v", tt.eco, tt.name, tt.version, err)
			continue
		}
		var ids []string
		for _, x := range vs {
			ids = append(ids, x.ID)
		}
		if got := strings.Join(ids, ","); got != tt.want {
			t.Errorf("%s %s@%s matched %q, want %q", tt.eco, tt.name, tt.version, got, tt.want)
		}
	}
	// Details come from the vulnerability bucket, severity from the advisory's source.
	vs, _ := v.match(ecoNPM, "lodash", "4.17.20")
	want := []model.DepVuln{{
		ID: "CVE-2021-23337", Severity: "high", Title: "nodejs-lodash: command injection via template",
		FixedVersion: "4.17.21", URL: "https://avd.aquasec.com/nvd/cve-2021-23337",
	}}
	if diff := cmp.Diff(want, vs); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
}
