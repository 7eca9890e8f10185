package secrets

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// leaks returns the first n-byte substring of secret found in out.
func leaks(out, secret string, n int) (string, bool) {
	if len(secret) < n {
		if strings.Contains(out, secret) {
			return secret, true
		}
		return "", false
	}
	for i := 0; i+n <= len(secret); i++ {
		if w := secret[i : i+n]; strings.Contains(out, w) {
			return w, true
		}
	}
	return "", false
}

func TestRedactNeverLeaks(t *testing.T) {
	f := newFaker(4)
	for _, c := range positives(f) {
		if c.secret == "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			out := Redact(c.value)
			if w, ok := leaks(out, c.secret, 8); ok {
				t.Errorf("Redact(%q) = %q leaks %q", c.value, out, w)
			}
			if !strings.Contains(out, "[REDACTED") {
				t.Errorf("Redact(%q) = %q has no marker", c.value, out)
			}
		})
	}
}

func TestRedactKeepsText(t *testing.T) {
	f := newFaker(5)
	tok := f.ghp()
	for in, want := range map[string]string{
		"git push https://x:" + tok + "@github.com/o/r HEAD": "git push https://x:[REDACTED:github-pat-classic:" + Fingerprint(tok) + "]@github.com/o/r HEAD",
		"npx -y @modelcontextprotocol/server-github":         "npx -y @modelcontextprotocol/server-github",
		"":                         "",
		"GITHUB_TOKEN=${GH_TOKEN}": "GITHUB_TOKEN=${GH_TOKEN}",
		tok + " and again " + tok:  "[REDACTED:github-pat-classic:" + Fingerprint(tok) + "] and again [REDACTED:github-pat-classic:" + Fingerprint(tok) + "]",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// A secret repeated where no rule sees it (no "https://u:" before it) is
// still removed: Redact replaces every occurrence of what it detected.
func TestRedactRepeats(t *testing.T) {
	pw := newFaker(6).password()
	in := "https://deploy:" + pw + "@git.corp.internal/r.git # password is " + pw
	out := Redact(in)
	if w, ok := leaks(out, pw, 8); ok {
		t.Errorf("Redact(%q) = %q leaks %q", in, out, w)
	}
}

// A marker never repeats the secret it replaces: a hex secret equal to a
// run of its own fingerprint gets the bare marker.
func TestMarkerNeverEchoes(t *testing.T) {
	ref := Detect(newFaker(8).ghp())
	if ref == nil {
		t.Fatal("no detection")
	}
	secret := "xx" + ref.Fingerprint[:10]
	if got := marker(*ref, secret); got != "[REDACTED]" {
		t.Errorf("marker = %q, want the bare marker", got)
	}
	if got := marker(*ref, "REDACTED"); got != "***" {
		t.Errorf("marker = %q, want ***", got)
	}
}

func FuzzScan(f *testing.F) {
	fk := newFaker(7)
	for _, c := range append(positives(fk), negatives(fk)...) {
		f.Add(c.value)
	}
	f.Add("https://a:b@c https://a:bbbbbbbb@c")
	f.Add("AUTHORIZATION: basic " + basic("x-access-token", basic("u", fk.ghs())))
	f.Fuzz(func(t *testing.T, s string) {
		ms := Scan(s)
		checkMatches(t, s, ms)
		out := Redact(s)
		for _, m := range ms {
			if secret := s[m.Start:m.End]; len(secret) >= 8 && strings.Contains(out, secret) {
				t.Fatalf("Redact(%q) = %q still holds %q (%s)", s, out, secret, m.Kind)
			}
		}
		if len(ms) == 0 && out != s {
			t.Fatalf("Redact changed %q with nothing detected: %q", s, out)
		}
		_ = DetectNamed("TOKEN", s)
	})
}

// FuzzGate checks that a gate never loses a match: its windows find what
// the regex finds over the whole text, at the same offsets.
func FuzzGate(f *testing.F) {
	fk := newFaker(11)
	for _, c := range append(positives(fk), negatives(fk)...) {
		f.Add(c.key + "=" + c.value)
	}
	f.Add("adafruit_key:  \"" + fk.s(lowerS, 32) + "\"")
	f.Add("API \t'\"=> " + fk.hex(32) + "\ntoken:: = 'abc' key=" + fk.s(alnum, 20) + "\\n")
	f.Fuzz(func(t *testing.T, s string) {
		checkGates(t, s)
	})
}

func checkGates(t testing.TB, s string) {
	t.Helper()
	for _, r := range getEngine().rules {
		if r.gate == nil {
			continue
		}
		want := r.re.FindAllStringSubmatchIndex(s, -1)
		if diff := cmp.Diff(want, r.gate.findAll(r.re, s)); diff != "" {
			t.Fatalf("gate of %s on %q (-want +got):\n%s", r.id, s, diff)
		}
	}
}

func TestGates(t *testing.T) {
	f := newFaker(12)
	gated, windowed := 0, 0
	for _, r := range getEngine().rules {
		if r.gate != nil {
			gated++
			if r.gate.windowed {
				windowed++
			}
		}
	}
	if gated < 50 || windowed < 50 {
		t.Errorf("only %d rules gated, %d windowed", gated, windowed)
	}
	checkGates(t, cleanText+" api_key = '"+f.s(alnum, 32)+"' "+cleanText+"\nkey: "+f.s(b64, 60)+"\\n")
	for _, c := range append(positives(f), negatives(f)...) {
		checkGates(t, c.value)
		checkGates(t, c.key+": '"+c.value+"'")
	}
	// The gated generic rule still fires where an operator follows.
	for _, s := range []string{"api_key = '" + f.s(alnum, 32) + "'", "ADAFRUIT_KEY=" + f.s(lowerS, 32)} {
		if len(Scan(s)) != 1 {
			t.Errorf("gated rule missed %q", s)
		}
	}
}
