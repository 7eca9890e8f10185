package secrets

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Tiers decide which rule names an overlapping find: our own prefix rules
// know the token's lifetime, gitleaks' vendor rules know the vendor, our
// context rules (URL password, Basic, Bearer) only know where it sat, and
// gitleaks' generic rules know least.
const (
	tierOwn = iota
	tierVendor
	tierContext
	tierGeneric
)

// maxRules and maxKeywords size the bitsets Scan keeps on its stack.
const (
	maxRules    = 512
	maxKeywords = 512
)

// rule is one recogniser, from gitleaks' default set or our own.
type rule struct {
	id       string // the kind reported
	lifetime string
	tier     int
	re       *regexp.Regexp
	// group is the secret's capture group; 0 takes gitleaks' default: the
	// first non-empty group, or the whole match when there is none.
	group    int
	entropy  float64 // the secret's Shannon entropy must exceed it (0: no check)
	keywords []string
	allow    []*config.Allowlist
	gitleaks bool
	trim     string // trailing characters never part of the secret
	// refine validates an own rule's find and may rename it (JWT lifetime,
	// Slack token type, a decoded Basic credential).
	refine func(f *find) bool
	// anchor or find, when set, is re.FindAllStringSubmatchIndex(text,
	// -1) in time linear in the text (see anchored.go, privkey.go).
	anchor matcher
	find   func(text string) [][]int
	// needs are substrings every match holds, checked before the regex runs.
	needs []string
}

// worthRunning applies the rule's cheap pre-checks.
func (r *rule) worthRunning(text string) bool {
	for _, n := range r.needs {
		if !strings.Contains(text, n) {
			return false
		}
	}
	return true
}

// find is one candidate secret before overlaps are resolved.
type find struct {
	text       string
	loc        []int // submatch indexes into text
	start, end int   // the secret
	ref        model.SecretRef
	tier, rank int
}

func (f *find) secret() string { return f.text[f.start:f.end] }

// group returns submatch i, "" when it did not take part.
func (f *find) group(i int) string {
	if 2*i+1 >= len(f.loc) || f.loc[2*i] < 0 {
		return ""
	}
	return f.text[f.loc[2*i]:f.loc[2*i+1]]
}

type engine struct {
	rules   []*rule
	global  []*config.Allowlist
	always  []int // rules without keywords
	kw      []string
	kwRules [][]int
	byFirst [256][]int // keyword indexes by lower-cased first byte
	// pairs[c1] has bit c2 set when a keyword starts with c1 c2 (or is
	// the single byte c1): most text positions fail this one test.
	pairs [256][4]uint64
	// stop holds each allowlist's stop words (see liftStopWords).
	stop map[*config.Allowlist]*words
	// anchors are the rules' anchored matchers (anchors[id].id == id);
	// keywords finds all their keywords at once.
	anchors  []*anchored
	keywords *keywordIndex
	err      error // why gitleaks' rules are missing, if they are
}

var (
	engineOnce sync.Once
	theEngine  *engine
)

// getEngine compiles every rule on first use, not at program start: the
// CLI's other commands and a small scan should not pay for it twice.
func getEngine() *engine {
	engineOnce.Do(func() { theEngine = buildEngine() })
	return theEngine
}

func buildEngine() *engine {
	e := &engine{rules: ownRules()}
	gl, global, stop, err := loadGitleaks()
	if err != nil {
		// Our own rules still cover the credentials sandboxes hold most.
		e.err = err
	} else {
		e.rules = append(e.rules, gl...)
		e.global = global
		e.stop = stop
	}
	if len(e.rules) > maxRules {
		e.err = fmt.Errorf("load secret rules: %d rules, at most %d fit", len(e.rules), maxRules)
		e.rules = e.rules[:maxRules]
	}
	for _, r := range e.rules {
		p, err := syntax.Parse(r.re.String(), syntax.Perl)
		if err != nil {
			continue // r.re compiled, so this does not happen
		}
		r.needs = requiredLiterals(p)
		switch {
		case r.find != nil:
		case r.id == "private-key" && !r.gitleaks:
			r.find = findPrivateKeys
		default:
			if m := anchoredMatcher(r.re, p); m != nil {
				r.anchor = m
			}
		}
	}
	for _, r := range e.rules {
		if r.anchor == nil {
			continue
		}
		for _, a := range r.anchor.parts() {
			a.id = len(e.anchors)
			e.anchors = append(e.anchors, a)
		}
	}
	e.keywords = newKeywordIndex(e.anchors)
	index := map[string]int{}
	for i, r := range e.rules {
		if len(r.keywords) == 0 {
			e.always = append(e.always, i)
			continue
		}
		for _, k := range r.keywords {
			k = strings.ToLower(k)
			if k == "" {
				continue
			}
			ki, ok := index[k]
			if !ok {
				if len(e.kw) == maxKeywords {
					e.always = append(e.always, i)
					break
				}
				ki = len(e.kw)
				index[k] = ki
				e.kw = append(e.kw, k)
				e.kwRules = append(e.kwRules, nil)
				e.byFirst[k[0]] = append(e.byFirst[k[0]], ki)
				if len(k) == 1 {
					e.pairs[k[0]] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
				} else {
					e.pairs[k[0]][k[1]>>6] |= 1 << (k[1] & 63)
				}
			}
			e.kwRules[ki] = append(e.kwRules[ki], i)
		}
	}
	return e
}

// prefilter marks the rules worth running on text: those without keywords
// and those with a keyword that the lower-cased text contains. It lowers
// ASCII letters on the fly instead of copying the text.
func (e *engine) prefilter(text string, hit *[maxRules / 64]uint64) bool {
	found := false
	for _, i := range e.always {
		hit[i/64] |= 1 << (i % 64)
		found = true
	}
	var seen [maxKeywords / 64]uint64
	for i := 0; i < len(text); i++ {
		c1, c2 := lower(text[i]), byte(0)
		if i+1 < len(text) {
			c2 = lower(text[i+1])
		}
		if e.pairs[c1][c2>>6]&(1<<(c2&63)) == 0 {
			continue
		}
		for _, k := range e.byFirst[c1] {
			if seen[k/64]&(1<<(k%64)) != 0 || !hasPrefixFold(text[i:], e.kw[k]) {
				continue
			}
			seen[k/64] |= 1 << (k % 64)
			for _, r := range e.kwRules[k] {
				hit[r/64] |= 1 << (r % 64)
			}
			found = true
		}
	}
	return found
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with the lower-case keyword kw,
// ignoring ASCII case in s.
func hasPrefixFold(s, kw string) bool {
	if len(s) < len(kw) {
		return false
	}
	for j := 1; j < len(kw); j++ {
		if lower(s[j]) != kw[j] {
			return false
		}
	}
	return true
}

// maxVetted is how many of one rule's finds in one text go through
// gitleaks' allowlists. An allowlist only ever removes a find, and a find
// costs its lists up to ~0.1 ms (generic-api-key's match list is one large
// case-folded alternation): a value holding a hundred thousand "token: …"
// lines would spend seconds there. Past the cap every find stands, so a
// text that large reports more, never less.
const maxVetted = 4096

// run applies one rule to text and appends what it finds.
func (e *engine) run(r *rule, rank int, text string, ks *keywordHits, out []find, cov *coverage) []find {
	var locs [][]int
	switch {
	case r.anchor != nil:
		locs = r.anchor.findAll(text, ks)
	case r.find != nil:
		locs = r.find(text)
	default:
		locs = r.re.FindAllStringSubmatchIndex(text, -1)
	}
	ls := newLines(text)
	vetted := 0
	for _, loc := range locs {
		s, end := secretSpan(r, loc, text)
		for end > s && strings.IndexByte(r.trim, text[end-1]) >= 0 {
			end--
		}
		if end <= s {
			continue
		}
		f := find{text: text, loc: loc, start: s, end: end, tier: r.tier, rank: rank,
			ref: model.SecretRef{Kind: r.id, Lifetime: r.lifetime}}
		secret := f.secret()
		if r.entropy > 0 && entropy(secret) <= r.entropy || isPlaceholder(secret) || cov.covered(s, end, r.tier) {
			continue
		}
		if r.gitleaks && vetted < maxVetted {
			vetted++
			match := strings.Trim(text[loc[0]:loc[1]], "\n")
			if e.allowed(e.global, secret, match, loc, ls) || e.allowed(r.allow, secret, match, loc, ls) {
				continue
			}
		}
		if r.refine != nil && !r.refine(&f) {
			continue
		}
		if f.ref.Fingerprint == "" {
			f.ref.Fingerprint = Fingerprint(secret)
		}
		out = append(out, f)
	}
	return out
}
