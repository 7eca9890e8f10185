package secrets

import (
	"os"
	"slices"
	"strconv"
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
		out, found := Hide(s)
		if out != Redact(s) {
			t.Fatalf("Hide and Redact differ on %q", s)
		}
		for _, m := range ms {
			if secret := s[m.Start:m.End]; len(secret) >= 8 && strings.Contains(out, secret) {
				t.Fatalf("Redact(%q) = %q still holds %q (%s)", s, out, secret, m.Kind)
			}
		}
		if len(found) == 0 && len(ms) > 0 {
			t.Fatalf("Hide(%q) reports no credential, Scan found %d", s, len(ms))
		}
		if len(found) == 0 && out != s {
			t.Fatalf("Redact changed %q with nothing found: %q", s, out)
		}
		_ = DetectNamed("TOKEN", s)
	})
}

// FuzzAnchored checks that every rule's linear matcher (anchored.go,
// privkey.go) finds what its regex finds over the whole text, at the same
// offsets and with the same groups.
func FuzzAnchored(f *testing.F) {
	fk := newFaker(11)
	for _, c := range append(positives(fk), negatives(fk)...) {
		f.Add(c.key + "=" + c.value)
	}
	for _, s := range anchoredSeeds(fk) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAnchored(t, s)
	})
}

// anchoredSeeds are texts at the edges of the matchers: K and ſ where
// (?i) folds them, keywords glued to words, prefixes longer than their cap,
// headers without footers.
func anchoredSeeds(f *faker) []string {
	return []string{
		"adafruit_key:  \"" + f.s(lowerS, 32) + "\"",
		"API \t'\"=> " + f.hex(32) + "\ntoken:: = 'abc' key=" + f.s(alnum, 20) + "\\n",
		"api_\u212aey = '" + f.s(alnum, 32) + "' \u017fecret: " + f.s(alnum, 24),
		"\u212a\u212a\u017f" + strings.Repeat("x", 60) + "token=" + f.s(alnum, 30) + "\n",
		strings.Repeat("a.b-c_", 20) + "okta_token = 00" + f.s(alnum, 40) + ";",
		strings.Repeat("key=", 40) + f.s(alnum, 20) + " key=" + f.s(alnum, 20),
		"-----BEGIN PRIVATE KEY-----" + strings.Repeat("-----BEGIN RSA PRIVATE KEY-----\n", 3) + f.s(b64, 80),
		"-----BEGIN EC PRIVATE KEY-----\n" + f.s(b64, 80) + "\n-----END -----END EC PRIVATE KEY-----\n-----BEGIN PRIVATE KEY-----",
		"xghp_" + f.s(alnum, 36) + " ghp_" + f.s(alnum, 36) + " _AKIA" + f.s(base32, 16) + " AKIA" + f.s(base32, 16),
		"sk-ant-api03-" + f.s(alnum, 93) + "AA sk_live_" + f.s(alnum, 30),
		// One alternative's run ends early, another's runs on past where S
		// is cut: the cut must not let it end there through $.
		"KEY-----=>" + f.s(alnum, 40) + "_" + f.s(alnum+"-.", 200) + " x",
	}
}

func checkAnchored(t testing.TB, s string) {
	t.Helper()
	e := getEngine()
	want := make([]bool, len(e.anchors))
	for i := range want {
		want[i] = true
	}
	ks := e.keywords.find(s, want)
	for _, r := range e.rules {
		if r.find == nil && r.anchor == nil {
			continue
		}
		exp := r.re.FindAllStringSubmatchIndex(s, -1)
		var got, self [][]int
		if r.anchor != nil {
			got, self = r.anchor.findAll(s, ks), r.anchor.findAll(s, nil)
		} else {
			got, self = r.find(s), r.find(s)
		}
		if diff := cmp.Diff(exp, got); diff != "" {
			t.Fatalf("linear matcher of %s on %q (-want +got):\n%s", r.id, s, diff)
		}
		if diff := cmp.Diff(exp, self); diff != "" {
			t.Fatalf("linear matcher of %s, keywords unindexed, on %q (-want +got):\n%s", r.id, s, diff)
		}
	}
}

func TestAnchored(t *testing.T) {
	f := newFaker(12)
	linear, total := 0, 0
	for _, r := range getEngine().rules {
		total++
		if r.find != nil || r.anchor != nil {
			linear++
		}
	}
	if linear < 200 {
		t.Errorf("only %d of %d rules have a linear matcher", linear, total)
	}
	checkAnchored(t, cleanText+" api_key = '"+f.s(alnum, 32)+"' "+cleanText+"\nkey: "+f.s(b64, 60)+"\\n")
	for _, s := range anchoredSeeds(f) {
		checkAnchored(t, s)
	}
	for _, c := range append(positives(f), negatives(f)...) {
		checkAnchored(t, c.value)
		checkAnchored(t, c.key+": '"+c.value+"'")
	}
	// The generic rule still fires where an operator follows.
	for _, s := range []string{"api_key = '" + f.s(alnum, 32) + "'", "ADAFRUIT_KEY=" + f.s(lowerS, 32)} {
		if len(Scan(s)) != 1 {
			t.Errorf("generic rule missed %q", s)
		}
	}
}

// TestAnchoredCompiles compiles every linear matcher's S, which the
// engine leaves to the first keyword that needs it, and checks its groups
// are the rule's.
func TestAnchoredCompiles(t *testing.T) {
	for _, r := range getEngine().rules {
		if r.anchor == nil {
			continue
		}
		var names []string
		for _, a := range r.anchor.parts() {
			s := a.sre()
			names = append(names, s.SubexpNames()[1:]...)
		}
		if want := r.re.SubexpNames()[1:]; !slices.Equal(names, want) {
			t.Errorf("%s: S's groups %q, the rule's %q", r.id, names, want)
		}
	}
}

// randomRuleText strings together the pieces the linear matchers reason
// about: rule keywords, operators, quotes, terminators, K and ſ, word runs
// of every length, PEM markers.
func randomRuleText(f *faker, kws []string) string {
	pieces := []func() string{
		func() string { return kws[f.r.IntN(len(kws))] },
		func() string { return kws[f.r.IntN(len(kws))] },
		func() string {
			return []string{"=", ":", ":=", "::=", "=>", ",", "||", "?=", ">", " = ", ": ", "='", `="`, "`"}[f.r.IntN(14)]
		},
		func() string { return []string{" ", "\t", "\n", `\n`, `\r`, "'", `"`, ";", "\\", "\r\n"}[f.r.IntN(10)] },
		func() string { return []string{kelvin, longS, "é", "\xff", "K", "k", "s", "S"}[f.r.IntN(8)] },
		func() string { return f.s(alnum, 1+f.r.IntN(60)) },
		func() string { return f.s(alnum+"_.-", 1+f.r.IntN(200)) },
		func() string { return f.s(b64+"=", 1+f.r.IntN(120)) },
		func() string { return f.hex(1 + f.r.IntN(70)) },
		func() string {
			return []string{"-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----BEGIN RSA PRIVATE KEY-----\n", "-----END EC PRIVATE KEY-----", "KEY-----"}[f.r.IntN(5)]
		},
		func() string { return []string{"://", "@", "https://", "Bearer ", "basic ", "curl -H "}[f.r.IntN(6)] },
	}
	var b strings.Builder
	for n := 1 + f.r.IntN(24); n > 0; n-- {
		b.WriteString(pieces[f.r.IntN(len(pieces))]())
	}
	return b.String()
}

// TestAnchoredRandom compares every linear matcher with its regex on
// generated texts (FuzzAnchored explores further when run with -fuzz).
func TestAnchoredRandom(t *testing.T) {
	var kws []string
	for _, r := range getEngine().rules {
		kws = append(kws, r.keywords...)
	}
	f := newFaker(14)
	n := 300
	if v, err := strconv.Atoi(os.Getenv("ANCHORED_TEXTS")); err == nil {
		n = v
	} else if testing.Short() {
		n = 50
	}
	for i := 0; i < n; i++ {
		checkAnchored(t, randomRuleText(f, kws))
	}
}
