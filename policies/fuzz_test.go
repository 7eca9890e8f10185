package policies

import (
	"bytes"
	"regexp"
	"testing"
)

// longRun is a run of characters a token is made of, long enough that no
// message of the parser or of the validation holds one of its own.
var longRun = regexp.MustCompile(`[A-Za-z0-9+/=$]{16,}`)

// FuzzParseConfig: any bytes give a config or an error naming the file,
// never a panic, and the error quotes nothing token-like from the file.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("version: 1\nfail_on: high\nwaivers:\n  - rule: x\n    reason: y\n    expires: 2027-01-01\n"))
	f.Add([]byte("version: 1\nexclude: [\"a/**\"]\nmin_score: {network: 50}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("\x00\xff"))
	f.Add([]byte("version: ghp_Tok3nTok3nTok3nTok3n\n"))
	f.Add([]byte("version: 1\nrules:\n  ghp_Tok3nTok3nTok3nTok3n: {mode: x}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfig("p.yaml", b)
		if err == nil && c.Version != 1 {
			t.Fatalf("accepted version %d", c.Version)
		}
		if err != nil {
			for _, run := range longRun.FindAllString(err.Error(), -1) {
				if bytes.Contains(b, []byte(run)) {
					t.Fatalf("the error quotes %q from the file: %v", run, err)
				}
			}
		}
	})
}
