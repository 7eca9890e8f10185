package policies

import "testing"

// FuzzParseConfig: any bytes give a config or an error naming the file, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("version: 1\nfail_on: high\nwaivers:\n  - rule: x\n    reason: y\n    expires: 2027-01-01\n"))
	f.Add([]byte("version: 1\nexclude: [\"a/**\"]\nmin_score: {network: 50}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("\x00\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfig("p.yaml", b)
		if err == nil && c.Version != 1 {
			t.Fatalf("accepted version %d", c.Version)
		}
	})
}
