package secrets

import (
	"encoding/base64"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Found is a credential that redaction hid: what it is, and the flag,
// variable, header, query key or URL part that held it ("" when none).
type Found struct {
	model.SecretRef
	Name string
}

// Redact replaces every credential in text with a marker naming its kind
// and fingerprint, "[REDACTED:github-pat-classic:1a2b3c4d5e6f]". It is the
// one function every collector quotes configuration through (see Hide).
func Redact(text string) string {
	out, _, _ := hide(text)
	return out
}

// Hide is Redact that also returns the credentials it hid, for
// credentials[]. It hides
//   - every secret Scan finds (known token formats, private keys, JWTs,
//     URL passwords, Basic and Bearer credentials, gitleaks' rules);
//   - the password of a URL's userinfo (or a token used as its user name)
//     and the query values that are secrets under their names;
//   - the credential of an Authorization header, whatever its format
//     (-H "Authorization: token …" in a command, a header value);
//   - NAME=value, --flag=value, --flag value and "key": value pairs whose
//     name is sensitive and whose value is a random-looking literal
//     (TOKEN=…, --api-key …);
//   - any other occurrence of a secret so found (a password repeated where
//     no rule sees it).
//
// Overlapping finds are hidden as one. Hide reads text a bounded number of
// times, however many secrets it holds.
func Hide(text string) (string, []Found) {
	out, found, _ := hide(text)
	return out, found
}

// HideValue is Hide for a value assigned to name (an env value, an action
// input, a query value): a value that is a secret as a whole under its
// name (DetectNamed) is replaced whole.
func HideValue(name, value string) (string, []Found) {
	out, found, _ := hideValue(name, value)
	return out, found
}

// HideArgs is Hide for an argument vector (an MCP server's args): a
// flag's value may be the next argument (--token VALUE), -e KEY=VALUE
// passes a variable, --header "Name: value" a header, and a secret found
// in one argument is hidden wherever it repeats in the others.
func HideArgs(args []string) ([]string, []Found) {
	if len(args) == 0 {
		return nil, nil
	}
	out := make([]string, len(args))
	var found []Found
	var all []string
	prev := ""
	for i, a := range args {
		name, value := splitArg(a, prev)
		prefix := a[:len(a)-len(value)]
		var fs []Found
		var ss []string
		switch {
		case (name == "header" || name == "H") && strings.Contains(value, ":"):
			h, v, _ := strings.Cut(value, ":")
			hdr := strings.TrimSpace(h)
			if strings.EqualFold(hdr, "authorization") {
				out[i], fs, ss = hide(a)
				break
			}
			var hv string
			hv, fs, ss = hideValue(hdr, v)
			out[i] = prefix + h + ":" + hv
		case name != "" && !strings.Contains(value, "://"):
			var hv string
			hv, fs, ss = hideValue(name, value)
			out[i] = prefix + hv
		default:
			out[i], fs, ss = hide(a)
		}
		for _, f := range fs {
			if f.Name == "" {
				f.Name = name
			}
			found = append(found, f)
		}
		all = append(all, ss...)
		prev = ""
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			prev = a
		}
	}
	if len(all) > 0 {
		w := newWords(all)
		for i := range out {
			out[i] = replaceRepeats(out[i], w, nil)
		}
	}
	return out, found
}

// splitArg names the value an argument carries: --flag=VALUE, -e KEY=VALUE,
// KEY=VALUE, or the argument after a flag (--token VALUE).
func splitArg(a, prev string) (name, value string) {
	switch {
	case strings.HasPrefix(a, "-") && strings.Contains(a, "="):
		name, value, _ = strings.Cut(a, "=")
		if (name == "-e" || name == "--env") && isEnvAssign(value) {
			name, value, _ = strings.Cut(value, "=")
		}
	case (prev == "-e" || prev == "--env") && isEnvAssign(a):
		name, value, _ = strings.Cut(a, "=")
	case prev != "" && !strings.HasPrefix(a, "-"):
		name, value = prev, a
	case isEnvAssign(a):
		name, value, _ = strings.Cut(a, "=")
	}
	return strings.TrimLeft(name, "-"), value
}

// isEnvAssign reports NAME=… with a variable name before the "=".
func isEnvAssign(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" || !(isLetter(name[0]) || name[0] == '_') {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isWordByte(name[i]) {
			return false
		}
	}
	return true
}

// hideValue is HideValue, also returning the secrets it hid.
func hideValue(name, value string) (string, []Found, []string) {
	if r := DetectNamed(name, value); r != nil && Detect(value) == nil {
		v := strings.TrimSpace(value)
		return marker(*r, v), []Found{{*r, name}}, []string{v}
	}
	out, found, ss := hide(value)
	for i := range found {
		if found[i].Name == "" {
			found[i].Name = name
		}
	}
	return out, found, ss
}

// hit is one credential's span in a text.
type hit struct {
	start, end int
	ref        model.SecretRef
	name       string
	rank       int // which names a merged hit: lowest first (see scanRank)
}

// Ranks of hits: a known format names the credential; what Hide read from
// its context (a URL part, an Authorization header, a sensitive name) says
// more than Scan's own context rules, and those more than gitleaks'
// generic rule.
const (
	rankFormat = iota
	rankHide
	rankContext
	rankGeneric
)

func scanRank(kind string) int {
	switch kind {
	case "url-password", "bearer-token", "basic-auth", "curl-auth-header", "curl-auth-user":
		return rankContext
	case "generic-api-key":
		return rankGeneric
	}
	return rankFormat
}

// hide is Hide, also returning the distinct secrets it hid (never to
// leave the package: callers that join texts use them for repeats).
func hide(text string) (string, []Found, []string) {
	if text == "" {
		return text, nil, nil
	}
	var hs []hit
	for _, m := range Scan(text) {
		hs = append(hs, hit{m.Start, m.End, m.SecretRef, "", scanRank(m.Kind)})
	}
	hs = append(hs, urlHits(text)...)
	hs = append(hs, authorizationHits(text)...)
	hs = append(hs, pairHits(text)...)
	hs = outsideMarkers(text, hs)
	if len(hs) == 0 {
		return text, nil, nil
	}
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].start < hs[j].start })
	merged := hs[:1]
	for _, h := range hs[1:] {
		last := &merged[len(merged)-1]
		if h.start < last.end {
			last.end = max(last.end, h.end)
			if h.rank < last.rank {
				last.ref, last.name, last.rank = h.ref, h.name, h.rank
			}
			continue
		}
		merged = append(merged, h)
	}
	var b strings.Builder
	b.Grow(len(text))
	var found []Found
	var secrets []string
	markers := map[string]string{}
	last := 0
	for _, h := range merged {
		secret := text[h.start:h.end]
		mk := marker(h.ref, secret)
		b.WriteString(text[last:h.start])
		b.WriteString(mk)
		last = h.end
		found = append(found, Found{h.ref, h.name})
		if _, ok := markers[secret]; !ok && len(secret) >= 6 {
			secrets = append(secrets, secret)
			markers[secret] = mk
		}
	}
	b.WriteString(text[last:])
	out := b.String()
	if len(secrets) > 0 {
		out = replaceRepeats(out, newWords(secrets), markers)
	}
	return out, found, secrets
}

// outsideMarkers drops the hits that fall in a marker of an earlier
// redaction ("[REDACTED:kind:fingerprint]"): text redacted twice stays as
// it was the first time.
func outsideMarkers(text string, hs []hit) []hit {
	if len(hs) == 0 || !strings.Contains(text, "[REDACTED") {
		return hs
	}
	var spans [][2]int
	for from := 0; ; {
		k := strings.Index(text[from:], "[REDACTED")
		if k < 0 {
			break
		}
		s := from + k
		e := strings.IndexByte(text[s:], ']')
		if e < 0 {
			break
		}
		spans = append(spans, [2]int{s, s + e + 1})
		from = s + e + 1
	}
	out := hs[:0]
	for _, h := range hs {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > h.start })
		if i < len(spans) && spans[i][0] < h.end {
			continue
		}
		out = append(out, h)
	}
	return out
}

// replaceRepeats hides every other occurrence of the secrets w holds: the
// longest one ending at each position, merged where they overlap, each
// region named by the longest secret in it (markers gives each secret's
// marker; without, the bare one).
func replaceRepeats(out string, w *words, markers map[string]string) string {
	type region struct {
		start, end int
		longest    string
	}
	var rs []region
	w.each(out, func(end, n int) bool {
		r := region{end - n, end, out[end-n : end]}
		for k := len(rs) - 1; k >= 0 && r.start < rs[k].end; k-- {
			r.start = min(r.start, rs[k].start)
			if len(rs[k].longest) > len(r.longest) {
				r.longest = rs[k].longest
			}
			rs = rs[:k]
		}
		rs = append(rs, r)
		return true
	})
	if len(rs) == 0 {
		return out
	}
	var b strings.Builder
	b.Grow(len(out))
	last := 0
	for _, r := range rs {
		b.WriteString(out[last:r.start])
		mk, ok := markers[r.longest]
		if !ok {
			mk = "[REDACTED]"
		}
		b.WriteString(mk)
		last = r.end
	}
	b.WriteString(out[last:])
	return b.String()
}

// marker names a redacted secret. When the marker itself would repeat 8
// characters of the secret (a secret that is hex like the fingerprint, or
// spells the kind), a bare one is used so Redact never gives any back.
func marker(ref model.SecretRef, secret string) string {
	for _, mk := range []string{"[REDACTED:" + ref.Kind + ":" + ref.Fingerprint + "]", "[REDACTED]"} {
		if !sharesRun(mk, secret, 8) {
			return mk
		}
	}
	return "***"
}

// sharesRun reports whether a and b have a common substring of n bytes.
func sharesRun(a, b string, n int) bool {
	for i := 0; i+n <= len(a); i++ {
		if strings.Contains(b, a[i:i+n]) {
			return true
		}
	}
	return false
}

// urlHits finds the credentials of URLs: the userinfo's password (any
// literal one: the server receives it) or a token used as the user name,
// and query values that are secrets under their names.
func urlHits(text string) []hit {
	var hs []hit
	// A path or query may hold more "://" (a redirect URL): the end of the
	// run each scan found is kept, so a later scan inside it costs nothing.
	var pathRun, queryRun run
	for from := 0; ; {
		k := strings.Index(text[from:], "://")
		if k < 0 {
			return hs
		}
		i := from + k
		from = i + 3
		if !hasScheme(text[:i]) {
			continue
		}
		start := i + 3
		end := start
		for end < len(text) && !urlStop(text[end]) && text[end] != '/' && text[end] != '?' && text[end] != '#' {
			end++
		}
		authority := text[start:end]
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			user, pass, hasPass := strings.Cut(authority[:at], ":")
			switch {
			case hasPass:
				if ref := urlPassword(unescape(user), unescape(pass)); ref != nil {
					s := start + len(user) + 1
					hs = append(hs, hit{s, s + len(pass), *ref, "password", rankHide})
				}
			case user != "":
				u := unescape(user)
				ref := Detect(u)
				if ref == nil {
					ref = DetectNamed("token", u)
				}
				if ref != nil {
					hs = append(hs, hit{start, start + len(user), *ref, "user", rankHide})
				}
			}
		}
		// The query, after any path.
		j := pathRun.end(text, end, func(c byte) bool { return !urlStop(c) && c != '?' && c != '#' })
		if j < len(text) && text[j] == '?' {
			q := j + 1
			qe := queryRun.end(text, q, func(c byte) bool { return !urlStop(c) && c != '#' })
			if q > queryRun.done {
				hs = append(hs, queryHits(text, q, qe)...)
				queryRun.done = qe
			}
		}
	}
}

// run remembers the last run of bytes a scan went through: a scan that
// starts inside it ends where it did.
type run struct{ s, e, done int }

func (r *run) end(text string, from int, in func(byte) bool) int {
	if r.e > 0 && r.s <= from && from <= r.e {
		return r.e
	}
	e := from
	for e < len(text) && in(text[e]) {
		e++
	}
	r.s, r.e = from, e
	return e
}

// urlStop ends a URL in free text.
func urlStop(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '\\'
}

func queryHits(text string, q, qe int) []hit {
	var hs []hit
	for p := q; p < qe; {
		e := strings.IndexByte(text[p:qe], '&')
		if e < 0 {
			e = qe - p
		}
		part := text[p : p+e]
		if k, v, ok := strings.Cut(part, "="); ok && v != "" {
			if ref := DetectNamed(unescape(k), unescape(v)); ref != nil && !IsReference(unescape(v)) {
				s := p + len(k) + 1
				hs = append(hs, hit{s, s + len(v), *ref, unescape(k), rankHide})
			}
		}
		p += e + 1
	}
	return hs
}

// urlPassword classifies a URL password: any literal one is a credential
// (a known token keeps its kind; actions/checkout's x-access-token user
// carries the job's token), but not a reference ($TOKEN, %TOKEN%,
// ${{ secrets.X }}) or a placeholder.
func urlPassword(user, pass string) *model.SecretRef {
	if def, ok := Default(pass); ok {
		pass = def
	}
	if pass == "" || pass[0] == '$' || pass[0] == '%' || IsReference(pass) || isPlaceholder(pass) {
		return nil
	}
	if r := Detect(pass); r != nil {
		return r
	}
	if user == "x-access-token" {
		return &model.SecretRef{Kind: "github-checkout-token", Lifetime: "short", Fingerprint: Fingerprint(pass)}
	}
	return &model.SecretRef{Kind: "url-password", Lifetime: "unknown", Fingerprint: Fingerprint(pass)}
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// authSchemes are the schemes an Authorization header names before its
// credential.
var authSchemes = map[string]bool{"bearer": true, "basic": true, "token": true, "digest": true, "bot": true}

// Authorization classifies the value of an Authorization header: any
// literal credential counts, whatever its format, since it is sent on
// every request. A Basic credential names the password inside it (a known
// token keeps its kind; actions/checkout persists x-access-token:TOKEN).
// nil for a reference ("Bearer ${TOKEN}") or no credential.
func Authorization(value string) *model.SecretRef {
	f := strings.Fields(value)
	switch {
	case len(f) == 0:
		return nil
	case len(f) == 1 && authSchemes[strings.ToLower(f[0])]:
		return nil
	case len(f) == 1:
		return credential("", f[0], false)
	}
	return credential(strings.ToLower(f[0]), strings.Join(f[1:], " "), false)
}

// credential classifies an Authorization credential under scheme. In a
// header value any literal counts; in free text (strict) a placeholder
// ("Bearer xxxxxxxx" in a README-like comment) does not.
func credential(scheme, cred string, strict bool) *model.SecretRef {
	if def, ok := Default(cred); ok {
		cred = def
	}
	if cred == "" || cred[0] == '$' || IsReference(cred) || !hasAlnum(cred) || placeholderWords[strings.ToLower(cred)] ||
		strict && isPlaceholder(cred) {
		return nil // nothing, a reference, a mask ("***") or a word
	}
	if scheme == "basic" {
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(cred, "="))
		}
		if err == nil && utf8.Valid(raw) {
			user, pass, ok := strings.Cut(string(raw), ":")
			if !ok {
				user, pass = "", user
			}
			if pass == "" || IsReference(pass) {
				return nil
			}
			if r := Detect(pass); r != nil {
				return r
			}
			if user == "x-access-token" {
				return &model.SecretRef{Kind: "github-checkout-token", Lifetime: "short", Fingerprint: Fingerprint(pass)}
			}
			return &model.SecretRef{Kind: "basic-auth", Lifetime: "unknown", Fingerprint: Fingerprint(pass)}
		}
	}
	if r := Detect(cred); r != nil {
		return r
	}
	return &model.SecretRef{Kind: "bearer-token", Lifetime: "unknown", Fingerprint: Fingerprint(cred)}
}

func hasAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) || '0' <= s[i] && s[i] <= '9' {
			return true
		}
	}
	return false
}

// authorizationHits finds "Authorization: <scheme> <credential>" (or
// "=" for a header passed as key=value) in free text.
func authorizationHits(text string) []hit {
	const key = "authorization"
	var hs []hit
	lowered := ""
	for from := 0; ; {
		if lowered == "" {
			if !containsFold(text, key) {
				return nil
			}
			lowered = asciiLower(text)
		}
		k := strings.Index(lowered[from:], key)
		if k < 0 {
			return hs
		}
		i := from + k + len(key)
		from = i
		i = skip(text, i, "\"' \t")
		if i >= len(text) || text[i] != ':' && text[i] != '=' {
			continue
		}
		i = skip(text, i+1, "\"' \t")
		w1s, w1e := i, wordEnd(text, i)
		if w1e == w1s {
			continue
		}
		scheme := ""
		cs, ce := w1s, w1e
		if authSchemes[strings.ToLower(text[w1s:w1e])] {
			scheme = strings.ToLower(text[w1s:w1e])
			cs = skip(text, w1e, " \t")
			ce = wordEnd(text, cs)
		}
		if ce == cs || text[ce-1] == ':' {
			continue // nothing, or the next header's name
		}
		if ref := credential(scheme, text[cs:ce], true); ref != nil {
			hs = append(hs, hit{cs, ce, *ref, "Authorization", rankHide})
		}
		from = ce
	}
}

// asciiLower lowers ASCII letters only, so offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}

func containsFold(s, lowerSub string) bool {
	for i := 0; i+len(lowerSub) <= len(s); i++ {
		if lower(s[i]) == lowerSub[0] && hasPrefixFold(s[i:], lowerSub) {
			return true
		}
	}
	return false
}

func skip(text string, i int, set string) int {
	for i < len(text) && strings.IndexByte(set, text[i]) >= 0 {
		i++
	}
	return i
}

// wordEnd is the end of the credential-like word at i.
func wordEnd(text string, i int) int {
	for i < len(text) && !urlStop(text[i]) && !strings.ContainsRune(",;)]}", rune(text[i])) {
		i++
	}
	return i
}

// pairHits finds NAME=value, --flag=value, --flag value and "key": value
// whose name is sensitive and whose value is a random-looking literal.
func pairHits(text string) []hit {
	var hs []hit
	type word struct{ s, e int }
	var words []word
	for i := 0; i < len(text); {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		s := i
		for i < len(text) && !isSpace(text[i]) {
			i++
		}
		if i > s {
			words = append(words, word{s, i})
		}
	}
	add := func(name string, vs, ve int) {
		// ${NAME:-default}: the default is the literal.
		for vs < ve && strings.IndexByte("\"'`", text[vs]) >= 0 {
			vs++
		}
		if strings.HasPrefix(text[vs:ve], "${") {
			if end := strings.IndexByte(text[vs:ve], '}'); end > 0 {
				ref := text[vs : vs+end+1]
				def, ok := Default(ref)
				if !ok || def == "" {
					return
				}
				vs, ve = vs+end-len(def), vs+end
			}
		}
		vs, ve = trimValue(text, vs, ve)
		if ve <= vs {
			return
		}
		name = strings.Trim(name, "-\"'`{,(")
		if !SensitiveName(name) {
			return
		}
		v := text[vs:ve]
		if IsReference(v) || isPlaceholder(v) || !looksSecret(name, v) {
			return
		}
		hs = append(hs, hit{vs, ve, model.SecretRef{Kind: "generic-secret", Lifetime: "unknown", Fingerprint: Fingerprint(v)}, name, rankHide})
	}
	for n, w := range words {
		t := text[w.s:w.e]
		if strings.Contains(t, "://") {
			continue // a URL: urlHits reads its parts
		}
		if eq := strings.IndexByte(t, '='); eq > 0 {
			// The name is the identifier just before "=": Bash(TOKEN=…),
			// --api-key=…, -e KEY=….
			ns := eq
			for ns > 0 && (isWordByte(t[ns-1]) || t[ns-1] == '-' || t[ns-1] == '.') {
				ns--
			}
			add(t[ns:eq], w.s+eq+1, w.e)
			continue
		}
		if n+1 == len(words) {
			continue
		}
		next := words[n+1]
		// A flag or key may be quoted and followed by a comma (JSON).
		bare := strings.TrimRight(strings.Trim(t, "\"'`"), ",")
		bare = strings.Trim(bare, "\"'`")
		nextBare := strings.TrimLeft(text[next.s:next.e], "\"'`")
		switch {
		case strings.HasSuffix(bare, ":") && len(bare) > 1:
			add(bare[:len(bare)-1], next.s, next.e)
		case strings.HasPrefix(bare, "-") && len(bare) > 1 && !strings.HasPrefix(nextBare, "-"):
			add(bare, next.s, next.e)
		}
	}
	return hs
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// trimValue drops the quotes and punctuation around a value, and what a
// shell operator ends (TOKEN=x&&make).
func trimValue(text string, s, e int) (int, int) {
	for s < e && strings.IndexByte("\"'`", text[s]) >= 0 {
		s++
	}
	if k := strings.IndexAny(text[s:e], "&|;"); k >= 0 {
		e = s + k
	}
	for e > s && strings.IndexByte("\"'`,;)]}:*", text[e-1]) >= 0 {
		e--
	}
	return s, e
}
