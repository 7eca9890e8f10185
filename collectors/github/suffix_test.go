package github

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPublicSuffixes(t *testing.T) {
	for _, tc := range []struct {
		entries []string
		want    []string
	}{
		{[]string{"com", "*.com", "*.co.uk", "co.uk", "https://*.github.io/", "*.herokuapp.com", "*.compute.amazonaws.com", ".blogspot.com", "*.*.org", "CO.UK."},
			[]string{"com", "*.com", "*.co.uk", "co.uk", "https://*.github.io/", "*.herokuapp.com", "*.compute.amazonaws.com", ".blogspot.com", "*.*.org", "CO.UK."}},
		// registrable domains and hosts: one owner's
		{[]string{"registry.npmjs.org", "*.pythonhosted.org", "*.example.co.uk", "octo.github.io", "https://artifacts.example.com:8443/x", "amazonaws.com", "corp.internal", "10.0.0.1", "*", ""},
			[]string{}},
	} {
		if d := cmp.Diff(tc.want, publicSuffixes(tc.entries)); d != "" {
			t.Errorf("publicSuffixes(%q) (-want +got):\n%s", tc.entries, d)
		}
	}
}
