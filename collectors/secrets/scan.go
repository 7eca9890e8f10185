package secrets

import (
	"math"
	"sort"
	"strings"
)

// indexWorth is the text length times matchers from which finding every
// matcher's keywords in one pass (keywordIndex) beats each looking for its
// own (measured with BenchmarkScanCorpus and TestAdversarialLinear).
const indexWorth = 64 << 10

// minScanLen is the shortest text worth scanning: no rule reports a secret
// that fits in fewer bytes together with what identifies it.
const minScanLen = 8

// Scan finds every secret in text, ordered by position, without overlaps.
// Start and End delimit the secret itself (a rule's secret group, not the
// "key=" around it), so cutting text[Start:End] out removes exactly it.
//
// Scan is called on every value a collector reads, so it is built to be
// cheap on clean values: one pass over the text finds which rule keywords
// it contains, and only those rules' regular expressions run (the
// "keyword = value" ones only when an operator follows the keyword).
func Scan(text string) []Match {
	return scan(text, true)
}

// scan is Scan; generic false leaves out gitleaks' generic rules, for
// callers that judge generic secrets themselves (DetectNamed).
func scan(text string, generic bool) []Match {
	if len(text) < minScanLen {
		return nil
	}
	e := getEngine()
	var hit [maxRules / 64]uint64
	if !e.prefilter(text, &hit) {
		return nil
	}
	var run []int
	anchored := 0
	for i, r := range e.rules {
		if hit[i/64]&(1<<(i%64)) != 0 && (generic || r.tier != tierGeneric) && r.worthRunning(text) {
			run = append(run, i)
			if r.anchor != nil {
				anchored++
			}
		}
	}
	// One pass finds every matcher's keywords; on a short text each
	// matcher finding its own costs less than setting that pass up.
	var ks *keywordHits
	if anchored > 0 && len(text)*anchored >= indexWorth {
		want := make([]bool, len(e.anchors))
		for _, i := range run {
			if r := e.rules[i]; r.anchor != nil {
				for _, a := range r.anchor.parts() {
					want[a.id] = true
				}
			}
		}
		ks = e.keywords.find(text, want)
	}
	var finds []find
	var cov coverage
	for _, i := range run {
		n := len(finds)
		finds = e.run(e.rules[i], i, text, ks, finds, &cov)
		cov.add(finds[n:])
	}
	return resolve(finds)
}

// resolve turns overlapping finds into non-overlapping matches: finds that
// overlap (directly or through others) make one match spanning all of
// them, so a redaction never leaves part of a secret that some rule saw
// behind. The best find names it: lowest tier, then longest, then first,
// then the rule listed first. One sort and one sweep: a text with a
// hundred thousand finds costs no more than its finds.
func resolve(finds []find) []Match {
	if len(finds) == 0 {
		return nil
	}
	sort.SliceStable(finds, func(i, j int) bool { return finds[i].start < finds[j].start })
	var out []Match
	best := 0
	end := finds[0].end
	flush := func(from, to int) {
		f := finds[best]
		out = append(out, Match{SecretRef: f.ref, Start: finds[from].start, End: to})
	}
	from := 0
	for i := 1; i < len(finds); i++ {
		f := &finds[i]
		if f.start < end {
			end = max(end, f.end)
			if better(f, &finds[best]) {
				best = i
			}
			continue
		}
		flush(from, end)
		from, best, end = i, i, f.end
	}
	flush(from, end)
	return out
}

// better orders finds for naming a match.
func better(a, b *find) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if la, lb := a.end-a.start, b.end-b.start; la != lb {
		return la > lb
	}
	if a.start != b.start {
		return a.start < b.start
	}
	return a.rank < b.rank
}

// coverage answers covered's question for the finds of the rules run so
// far: does one of them, of a tier at least as good, span [s, e)? Spans are
// kept sorted by start with, per tier, the largest end up to each, so a
// question costs a binary search and a rule's finds one merge.
type coverage struct {
	spans  []find
	maxEnd [tierGeneric + 1][]int
}

// add merges a rule's finds, which come sorted by start.
func (c *coverage) add(fs []find) {
	if len(fs) == 0 {
		return
	}
	merged := make([]find, 0, len(c.spans)+len(fs))
	i, j := 0, 0
	for i < len(c.spans) || j < len(fs) {
		if j == len(fs) || i < len(c.spans) && c.spans[i].start <= fs[j].start {
			merged = append(merged, c.spans[i])
			i++
		} else {
			merged = append(merged, fs[j])
			j++
		}
	}
	c.spans = merged
	for t := range c.maxEnd {
		m := c.maxEnd[t][:0]
		best := -1
		for k := range merged {
			if merged[k].tier <= t {
				best = max(best, merged[k].end)
			}
			m = append(m, best)
		}
		c.maxEnd[t] = m
	}
}

// covered reports whether an earlier find of the same or a better tier
// already spans [s, e): resolve would fold this one into it unchanged, so
// its allowlists (gitleaks' cost the most) need not run.
func (c *coverage) covered(s, e, tier int) bool {
	i := sort.Search(len(c.spans), func(i int) bool { return c.spans[i].start > s }) - 1
	return i >= 0 && c.maxEnd[tier][i] >= e
}

// entropy is the Shannon entropy of s in bits per character, computed like
// gitleaks does so its thresholds mean the same: rune counts divided by the
// byte length (the same as bytes for ASCII).
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	n := 0
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
		counts[s[i]]++
		n++
	}
	h := 0.0
	if ascii {
		inv := 1 / float64(n)
		for _, c := range counts {
			if c > 0 {
				p := float64(c) * inv
				h -= p * math.Log2(p)
			}
		}
		return h
	}
	runes := map[rune]int{}
	for _, r := range s {
		runes[r]++
	}
	inv := 1 / float64(len(s))
	for _, c := range runes {
		p := float64(c) * inv
		h -= p * math.Log2(p)
	}
	return h
}

// secretSpan picks the secret inside a match: the rule's secret group, or
// gitleaks' default (first non-empty group). A named group is a label
// (jwt-base64 names the JOSE header it saw), not the secret, so the whole
// match is used then.
func secretSpan(r *rule, loc []int, text string) (int, int) {
	s, e := loc[0], loc[1]
	switch {
	case r.group > 0:
		if 2*r.group+1 >= len(loc) || loc[2*r.group] < 0 {
			return 0, 0
		}
		s, e = loc[2*r.group], loc[2*r.group+1]
	case len(loc) > 2:
		names := r.re.SubexpNames()
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
				if names[g] == "" {
					s, e = loc[2*g], loc[2*g+1]
				}
				break
			}
		}
	}
	// gitleaks trims newlines a match may run into.
	for s < e && text[s] == '\n' {
		s++
	}
	for e > s && text[e-1] == '\n' {
		e--
	}
	return s, e
}

// lines hands out the line around a match, for gitleaks' line allowlists,
// and remembers each list's verdict on it. Matches come in order, so the
// newlines before and after them are found by reading the text once, and
// on one long line neither the line nor a regex over it is worth computing
// twice.
type lines struct {
	text       string
	scanned    int // newlines before scanned have been seen
	lastNL     int // the last of them, -1 for none
	nextNL     int // the first newline at or after the last match's end
	start, end int // the current line
	verdicts   map[any]bool
}

func newLines(text string) *lines {
	return &lines{text: text, lastNL: -1, nextNL: -1, start: -1, end: -1}
}

// around returns the whole lines spanned by text[s:e]; s and e never go
// back between calls.
func (l *lines) around(s, e int) string {
	for l.scanned < s {
		k := strings.IndexByte(l.text[l.scanned:s], '\n')
		if k < 0 {
			l.scanned = s
			break
		}
		l.lastNL = l.scanned + k
		l.scanned = l.lastNL + 1
	}
	if l.nextNL < e {
		if k := strings.IndexByte(l.text[e:], '\n'); k >= 0 {
			l.nextNL = e + k
		} else {
			l.nextNL = len(l.text)
		}
	}
	if start := l.lastNL + 1; start != l.start || l.nextNL != l.end {
		l.start, l.end = start, l.nextNL
		clear(l.verdicts)
	}
	return l.text[l.start:l.end]
}

// verdict returns f's answer on the current line, computing it once.
func (l *lines) verdict(key any, f func() bool) bool {
	if v, ok := l.verdicts[key]; ok {
		return v
	}
	if l.verdicts == nil {
		l.verdicts = map[any]bool{}
	}
	v := f()
	l.verdicts[key] = v
	return v
}
