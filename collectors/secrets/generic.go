package secrets

import (
	"strings"
)

// placeholderWords are values people write where a secret will go, and
// defaults everybody knows; they are never reported.
var placeholderWords = map[string]bool{
	"password": true, "pass": true, "passwd": true, "passw0rd": true, "p@ssw0rd": true, "p@ssword": true, "password1": true,
	"password123": true, "secret": true, "secret123": true, "s3cr3t": true, "changeme": true,
	"changeit": true, "admin": true, "admin123": true, "root": true, "toor": true, "test": true,
	"testing": true, "default": true, "postgres": true, "mysql": true, "guest": true,
	"letmein": true, "qwerty": true, "none": true, "null": true, "nil": true, "empty": true,
	"undefined": true, "todo": true, "tbd": true, "fixme": true, "sample": true, "fake": true,
	"foo": true, "bar": true, "baz": true, "foobar": true, "token": true, "apikey": true,
	"api_key": true, "api-key": true, "mysecret": true, "my-secret": true, "mypassword": true,
	"hidden": true, "masked": true, "true": true, "false": true, "yes": true, "no": true,
}

// placeholderParts mark a value as a placeholder wherever they appear. They
// are long enough (or symbolic enough) not to occur in random tokens.
var placeholderParts = []string{
	"example", "changeme", "change_me", "change-me", "placeholder", "dummy", "redacted",
	"replace_me", "replace-me", "replaceme", "your_", "your-", "yourtoken", "yourkey",
	"yourapikey", "yoursecret", "insert_", "insert-", "xxxxx", "*****", "•••", "....",
	"<", ">", "${", "{{", "}}", "%(", "…",
}

// isPlaceholder reports whether v stands in for a secret rather than being
// one: "changeme", "<your-token>", "${TOKEN}", "xxxx…", "aaaa…", "abcdef…".
func isPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	l := strings.ToLower(v)
	if placeholderWords[l] {
		return true
	}
	for _, p := range placeholderParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	return lowDiversity(l)
}

// lowDiversity: at most three distinct characters ("aaaa", "abab", "0000"),
// or mostly a run of consecutive characters ("123456789", "abcdefgh").
func lowDiversity(s string) bool {
	var seen [256]bool
	distinct, steps := 0, 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			distinct++
		}
		if i > 0 && (s[i] == s[i-1]+1 || s[i] == s[i-1]-1) {
			steps++
		}
	}
	return distinct <= 3 || len(s) >= 6 && steps*10 >= (len(s)-1)*8
}

// looksSecret decides whether a literal under a sensitive name is a secret
// that no known format recognised: long enough, one word, random-looking
// (entropy and character classes), and not a URL, path, e-mail, host name,
// version, image reference or identifier.
func looksSecret(name, v string) bool {
	if len(v) < 8 || strings.ContainsAny(v, " \t\r\n") || isPlaceholder(v) || isBenign(v) {
		return false
	}
	var up, lo, dg, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'A' <= c && c <= 'Z':
			up = true
		case 'a' <= c && c <= 'z':
			lo = true
		case '0' <= c && c <= '9':
			dg = true
		case c == '_' || c == '-' || c == '.' || c == '/' || c == ':':
		default:
			other = true
		}
	}
	classes := count(up, lo, dg, other)
	h := entropy(v)
	if passwordName(name) {
		if !dg && !other {
			return up && lo && h >= 3
		}
		return classes >= 2 && h >= 2.5
	}
	if !dg && !other {
		return false // words, identifiers, variable names
	}
	return classes >= 2 && h >= 3
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func passwordName(name string) bool {
	for _, w := range nameWords(name) {
		if strings.Contains(w, "pass") || w == "pwd" {
			return true
		}
	}
	return false
}

// secretStores prefix references into a secret manager, not secrets.
var secretStores = []string{"vault:", "op://", "arn:aws:", "projects/", "sm://", "awssm:", "gcpsm:",
	"azkv:", "keyvault:", "keychain:", "keyring:", "env:", "file:", "secret:", "secretref:"}

func isBenign(v string) bool {
	l := strings.ToLower(v)
	for _, p := range secretStores {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	switch {
	case isURL(v), isEmail(v), isHostname(l), isVersion(v):
		return true
	case strings.HasPrefix(v, "~/"), strings.HasPrefix(v, "./"), strings.HasPrefix(v, "../"),
		len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/'):
		return true
	case strings.HasPrefix(v, "/"):
		// A path is made of words; a base64 secret that happens to start
		// with a slash has a long segment mixing cases and digits.
		return !anySegment(v, func(seg string) bool { return len(seg) >= 10 && mixed(seg) })
	case strings.ContainsAny(v, "/:"):
		// Image references, content types, "user:word" pairs; base64 keeps
		// its + and =, and random segments mix cases or letters and digits.
		return !strings.ContainsAny(v, "+=") && !anySegment(v, randomSegment)
	}
	return false
}

func anySegment(v string, f func(string) bool) bool {
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune("/:@.-_", r) }) {
		if f(seg) {
			return true
		}
	}
	return false
}

func randomSegment(seg string) bool {
	if len(seg) < 10 {
		return false
	}
	var up, lo, dg bool
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		up = up || 'A' <= c && c <= 'Z'
		lo = lo || 'a' <= c && c <= 'z'
		dg = dg || '0' <= c && c <= '9'
	}
	return up && lo || dg && (up || lo) && entropy(seg) >= 3.3
}

func isURL(v string) bool {
	i := strings.Index(v, "://")
	if i <= 0 || i > 31 || !isLetter(v[0]) {
		return false
	}
	for j := 1; j < i; j++ {
		if !isSchemeByte(v[j]) {
			return false
		}
	}
	return true
}

func isEmail(v string) bool {
	at := strings.IndexByte(v, '@')
	return at > 0 && at == strings.LastIndexByte(v, '@') && isHostname(strings.ToLower(v[at+1:]))
}

// isHostname: dotted lower-case labels ending in a letters-only TLD, with an
// optional port ("api.openai.com", "db.internal:5432").
func isHostname(l string) bool {
	if i := strings.LastIndexByte(l, ':'); i > 0 && allDigits(l[i+1:]) {
		l = l[:i]
	}
	labels := strings.Split(l, ".")
	if len(labels) < 2 {
		return false
	}
	for _, lb := range labels {
		if lb == "" {
			return false
		}
		for i := 0; i < len(lb); i++ {
			if c := lb[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	for i := 0; i < len(tld); i++ {
		if tld[i] < 'a' || tld[i] > 'z' {
			return false
		}
	}
	return true
}

// isVersion: 1.2.3, v20.11.1, 3.12-slim.
func isVersion(v string) bool {
	v = strings.TrimPrefix(v, "v")
	dots := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case '0' <= c && c <= '9':
		case c == '.':
			dots++
		case c == '-' || c == '+':
			return dots > 0 && i > 0
		default:
			return false
		}
	}
	return dots > 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
