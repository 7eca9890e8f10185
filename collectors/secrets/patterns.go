package secrets

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ownRules are the token formats sandboxes hold most, with the lifetime each
// has. They win over gitleaks' rules for the kind name because they know
// whether a token outlives the task (a classic PAT) or not (an installation
// token). They are compiled with gitleaks' rules, on first use.
//
// Boundaries: prefixes that cannot occur inside words (ghp_, github_pat_…)
// need none; short or word-like ones (AKIA, sk-, npm_) need \b so that
// "task-…" or a base64 blob containing "AKIA" do not match.
func ownRules() []*rule {
	mk := func(id, lifetime string, tier int, keywords []string, re string) *rule {
		return &rule{id: id, lifetime: lifetime, tier: tier, keywords: keywords, re: regexp.MustCompile(re)}
	}
	rs := []*rule{
		mk("private-key", "long", tierOwn, []string{"-----begin"},
			`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)`),
		mk("github-pat-classic", "long", tierOwn, []string{"ghp_"}, `ghp_[A-Za-z0-9]{36,251}`),
		mk("github-pat-fine-grained", "long", tierOwn, []string{"github_pat_"}, `github_pat_[A-Za-z0-9_]{50,244}`),
		mk("github-oauth-token", "long", tierOwn, []string{"gho_"}, `gho_[A-Za-z0-9]{36,251}`),
		mk("github-app-user-token", "short", tierOwn, []string{"ghu_"}, `ghu_[A-Za-z0-9]{36,251}`),
		// Installation tokens (GITHUB_TOKEN too) live an hour; the stateless
		// form is ghs_<app id>_<JWT>, ~520 characters with dots.
		mk("github-app-installation-token", "short", tierOwn, []string{"ghs_"}, `ghs_[A-Za-z0-9._-]{36,}`),
		mk("github-refresh-token", "long", tierOwn, []string{"ghr_"}, `ghr_[A-Za-z0-9]{36,251}`),
		mk("aws-access-key-id", "long", tierOwn, []string{"akia"}, `\b(AKIA[A-Z0-9]{16})\b`),
		mk("aws-temporary-access-key", "short", tierOwn, []string{"asia"}, `\b(ASIA[A-Z0-9]{16})\b`),
		mk("anthropic-api-key", "long", tierOwn, []string{"sk-ant-"}, `\b(sk-ant-[A-Za-z0-9_-]{32,300})`),
		mk("openai-api-key", "long", tierOwn, []string{"sk-"}, `\b(sk-[A-Za-z0-9_-]{32,300})`),
		mk("slack-token", "long", tierOwn, []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"}, `\b(xox[baprs]-[A-Za-z0-9-]{10,250})`),
		mk("gitlab-pat", "long", tierOwn, []string{"glpat-"}, `\b(glpat-[A-Za-z0-9_.-]{20,300})`),
		mk("npm-token", "long", tierOwn, []string{"npm_"}, `\b(npm_[A-Za-z0-9]{36,251})`),
		mk("pypi-token", "long", tierOwn, []string{"pypi-"}, `\b(pypi-[A-Za-z0-9_-]{50,1000})`),
		mk("google-api-key", "long", tierOwn, []string{"aiza"}, `\b(AIza[A-Za-z0-9_-]{35})(?:[^A-Za-z0-9_-]|$)`),
		mk("jwt", "unknown", tierOwn, []string{"eyj"}, `\b(eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)`),
		// Two branches, not (?:\bbasic…|"auth"…)(…): at the top level each
		// is matched from its keyword in linear time (anchored.go).
		mk("basic-auth", "unknown", tierOwn, []string{"basic", `"auth"`},
			`(?i)\bbasic[ \t]+([a-z0-9+/]{8,}={0,2})|(?i)"auth"[ \t]*:[ \t]*"([a-z0-9+/]{8,}={0,2})`),
		// Starts at "://" so regexp skips ahead with a literal search; the
		// scheme before it is checked by refineURL.
		mk("url-password", "unknown", tierContext, []string{"://"},
			`://([^\s:/?#@'"<>\x60]+):([^\s/?#@'"<>\x60]+)@([^\s/?#:'"<>\x60]*)`),
		mk("bearer-token", "unknown", tierContext, []string{"bearer"}, `(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)`),
	}
	for _, r := range rs {
		r.entropy = 3
		switch r.id {
		case "private-key":
			r.entropy, r.refine = 0, refinePrivateKey
		case "github-app-installation-token", "gitlab-pat", "bearer-token":
			r.trim = "."
		case "anthropic-api-key":
			r.refine = bodyCheck("sk-ant-")
		case "openai-api-key":
			r.refine = refineOpenAI
		case "slack-token":
			r.refine = refineSlack
		case "google-api-key":
			r.entropy = 3.5
		case "pypi-token":
			r.entropy = 4
		case "jwt":
			r.refine = refineJWT
		case "basic-auth":
			r.entropy, r.refine = 0, refineBasic
		case "url-password":
			r.entropy, r.group, r.refine = 0, 2, refineURL
		}
	}
	return rs
}

// bodyCheck wants a random-looking body after the prefix: API keys mix
// upper case, lower case and digits; words and docs' "sk-ant-…" do not.
func bodyCheck(prefix string) func(f *find) bool {
	return func(f *find) bool {
		body := strings.TrimPrefix(f.secret(), prefix)
		return len(body) >= 32 && mixed(body)
	}
}

func mixed(s string) bool {
	var up, lo, dg bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || 'A' <= c && c <= 'Z'
		lo = lo || 'a' <= c && c <= 'z'
		dg = dg || '0' <= c && c <= '9'
	}
	return up && lo && dg
}

func refineOpenAI(f *find) bool {
	s := f.secret()
	if strings.HasPrefix(s, "sk-ant-") {
		return false // an Anthropic key the Anthropic rule turned down
	}
	body := strings.TrimPrefix(s, "sk-")
	for _, p := range []string{"proj-", "svcacct-", "admin-", "None-"} {
		body = strings.TrimPrefix(body, p)
	}
	return len(body) >= 32 && mixed(body)
}

func refineSlack(f *find) bool {
	switch f.secret()[3] {
	case 'b':
		f.ref.Kind = "slack-bot-token"
	case 'p':
		f.ref.Kind = "slack-user-token"
	case 'a':
		f.ref.Kind = "slack-workspace-token"
	case 'r':
		f.ref.Kind = "slack-refresh-token"
	case 's':
		f.ref.Kind, f.ref.Lifetime = "slack-session-token", "session"
	}
	return true
}

// refinePrivateKey wants a real body (a PEM header alone names a format, it
// holds nothing) and fingerprints the key material only, so the same key
// written with real newlines or JSON "\n" escapes has one fingerprint.
func refinePrivateKey(f *find) bool {
	s := f.secret()
	body := s[strings.Index(s[5:], "-----")+10:]
	if i := strings.Index(body, "-----END"); i >= 0 {
		body = body[:i]
	}
	body = strings.NewReplacer(`\n`, "", `\r`, "").Replace(body)
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '+' || c == '/' || c == '=' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' {
			b.WriteByte(c)
		}
	}
	if b.Len() < 40 {
		return false
	}
	f.ref.Fingerprint = Fingerprint(b.String())
	return true
}

// refineBasic decodes a Basic credential (an Authorization header, a git
// extraheader, a docker config "auth") and names the password inside: a
// known token keeps its own kind, lifetime and fingerprint, so the same
// GITHUB_TOKEN is recognised in .git/config and in an env var.
func refineBasic(f *find) bool {
	enc := f.secret()
	raw, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(enc, "="))
	}
	if err != nil || !utf8.Valid(raw) {
		return false
	}
	for _, r := range string(raw) {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	_, pass, ok := strings.Cut(string(raw), ":")
	if !ok || pass == "" || isPlaceholder(pass) || IsReference(pass) {
		return false
	}
	if ms := Scan(pass); len(ms) > 0 {
		f.ref = ms[0].SecretRef
		return true
	}
	f.ref.Fingerprint = Fingerprint(pass)
	return true
}

// refineURL wants a URL scheme before "://" ("https", "git+ssh") and drops
// passwords that are references ($TOKEN, %TOKEN%) and those of
// documentation hosts (RFC 2606 example domains).
func refineURL(f *find) bool {
	if !hasScheme(f.text[:f.loc[0]]) {
		return false
	}
	pass := f.secret()
	if pass[0] == '$' || pass[0] == '%' || IsReference(pass) {
		return false
	}
	host := strings.ToLower(f.group(3))
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return false
		}
	}
	return !strings.HasSuffix(host, ".example") && !strings.HasSuffix(host, ".invalid")
}

// hasScheme reports whether before ends in a URL scheme: a letter, then up
// to 30 letters, digits, "+", "." or "-", not glued to a word before it.
func hasScheme(before string) bool {
	i := len(before)
	for i > 0 && len(before)-i < 31 && isSchemeByte(before[i-1]) {
		i--
	}
	for i < len(before) && !isLetter(before[i]) {
		i++ // "+git" is not a scheme; its tail may be
	}
	return i < len(before) && (i == 0 || !isWordByte(before[i-1]))
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func isSchemeByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isWordByte(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '_' }
