package secrets

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sizeCap is the largest configuration file a scan reads
// (collectors.DefaultMaxFileSize); a single value of a file can be as large.
const sizeCap = 8 << 20

// adversarial returns texts of about n bytes built to make a matcher that
// re-reads text (from each keyword, each header, each candidate) quadratic:
// the cases of issue 13 (repeated PEM headers, 400 KB in one field took a
// minute) and every other repeated prefix or keyword the rules start with.
func adversarial(n int) map[string]func() string {
	f := newFaker(15)
	rep := func(s string) func() string {
		return func() string { return strings.Repeat(s, n/len(s)+1)[:n] }
	}
	random := func(alphabet string) func() string { return func() string { return f.s(alphabet, n) } }
	words := func() string {
		var b strings.Builder
		for b.Len() < n {
			switch f.r.IntN(4) {
			case 0:
				b.WriteString("api_key=")
			case 1:
				b.WriteString(f.s(alnum+"_.-", 1+f.r.IntN(40)))
			case 2:
				b.WriteString(" token: '")
			default:
				b.WriteString(f.s(b64, 1+f.r.IntN(30)))
			}
		}
		return b.String()[:n]
	}
	lines := func() string {
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "token: %s\n", f.s(alnum, 30))
		}
		return b.String()[:n]
	}
	var kws []string
	for _, r := range getEngine().rules {
		kws = append(kws, r.keywords...)
	}
	every := strings.Join(kws, " = ")
	return map[string]func() string{
		"every keyword, then base64": func() string { return (every + " " + f.s(b64, n))[:n] },
		"every keyword, repeated":    rep(every + " "),
		"pem headers":                rep("-----BEGIN PRIVATE KEY-----"),
		"pem header lines":           rep("-----BEGIN PRIVATE KEY-----\n"),
		"pem headers and bodies":     rep("-----BEGIN RSA PRIVATE KEY-----\n" + f.s(b64, 64) + "\n"),
		"pem footers":                rep("-----END PRIVATE KEY-----"),
		"base64 run":                 random(b64),
		"hex run":                    random(hexa),
		"ghp_":                       rep("ghp_"),
		"github_pat_":                rep("github_pat_"),
		"AKIA":                       rep("AKIA"),
		"sk-":                        rep("sk-"),
		"sk-ant-":                    rep("sk-ant-"),
		"xoxb-":                      rep("xoxb-"),
		"eyJ":                        rep("eyJ"),
		"eyJ segments":               rep("eyJhbGciOi."),
		"eyJ dashes":                 rep("eyJa-"),
		"glpat-":                     rep("glpat-"),
		"key=":                       rep("key="),
		"api_key = 'value'":          rep("api_key = '" + f.s(alnum, 24) + "' "),
		"long line of keywords":      words,
		"many short lines":           rep("a=b\n"),
		"many token lines":           lines,
		"url userinfo":               rep("https://u:"),
		"url passwords":              rep("://a:" + f.password() + "@"),
		"Bearer":                     rep("Authorization: Bearer "),
		"basic":                      rep("basic "),
		"curl headers, no newline":   rep("curl -H x "),
	}
}

// cpuTime is the process's CPU time: the machines tests run on are shared,
// and wall time measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestAdversarialLinear redacts each adversarial text at the size cap:
// Hide is what collectors call, and it scans too. Before the matchers were
// made linear the PEM headers alone took hours at this size; each case now
// takes seconds.
func TestAdversarialLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("redacts 8 MiB texts")
	}
	getEngine()
	const bound = 20 * time.Second // CPU time, per case
	for name, gen := range adversarial(sizeCap) {
		text := gen()
		wall, cpu := time.Now(), cpuTime()
		out, found, hidden := hide(text)
		used := cpuTime() - cpu
		t.Logf("%-26s %d bytes: %d credentials, %v CPU (%v wall)", name, len(text), len(found), used.Round(time.Millisecond), time.Since(wall).Round(time.Millisecond))
		if used > bound {
			t.Errorf("%s: %v CPU for %d bytes, want under %v", name, used, len(text), bound)
		}
		if len(hidden) > 0 {
			newWords(hidden).each(out, func(end, n int) bool {
				t.Errorf("%s: the redacted text still holds %q", name, out[end-n:end])
				return false
			})
		}
	}
}

// TestLinearGrowth: four times the text takes at most a little more than
// four times the time, on the cases that were quadratic (sixteen times).
func TestLinearGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("redacts MiB texts")
	}
	getEngine()
	for _, name := range []string{"pem headers", "pem header lines", "key=", "many token lines", "eyJ dashes"} {
		small, large := adversarial(sizeCap / 16)[name](), adversarial(sizeCap / 4)[name]()
		c := cpuTime()
		Redact(small)
		ts := cpuTime() - c
		c = cpuTime()
		Redact(large)
		tl := cpuTime() - c
		t.Logf("%s: %v for %d bytes, %v for %d", name, ts, len(small), tl, len(large))
		if tl > 8*ts+200*time.Millisecond {
			t.Errorf("%s: %v for %d bytes but %v for %d: not linear", name, ts, len(small), tl, len(large))
		}
	}
}
