package sarifcheck

import (
	"strings"
	"testing"
)

func TestRejectsBadSARIF(t *testing.T) {
	cases := map[string]struct {
		doc  string
		want string
	}{
		"no location":      {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","properties":{"security-severity":"5.0","tags":["security"]}}]}},"automationDetails":{"id":"a/"},"results":[{"ruleId":"r","message":{"text":"m"},"partialFingerprints":{"a":"b"}}]}]}`, "no physical location"},
		"numeric severity": {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","properties":{"security-severity":5,"tags":["security"]}}]}},"automationDetails":{"id":"a/"},"results":[]}]}`, "security-severity missing or not a string"},
		"absolute uri":     {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","properties":{"security-severity":"5.0","tags":["security"]}}]}},"automationDetails":{"id":"a/"},"results":[{"ruleId":"r","message":{"text":"m"},"partialFingerprints":{"a":"b"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///etc/x"},"region":{"startLine":1}}}]}]}]}`, "not repo-relative"},
		"schema":           {`{"version":"9.9","runs":[]}`, "schema:"},
		"null":             {`{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"automationDetails":{"id":"a/"},"results": null}]}`, "null"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := strings.Join(Validate([]byte(c.doc)), "\n")
			if !strings.Contains(got, c.want) {
				t.Fatalf("want a problem containing %q, got:\n%s", c.want, got)
			}
		})
	}
}
