package secrets

import (
	"math"
	"sort"
	"strings"
)

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
	var finds []find
	for i, r := range e.rules {
		if hit[i/64]&(1<<(i%64)) != 0 && (generic || r.tier != tierGeneric) && r.worthRunning(text) {
			finds = e.run(r, i, text, finds)
		}
	}
	return resolve(finds)
}

// resolve turns overlapping finds into non-overlapping matches. The best
// find (lowest tier, then longest, then first) names a region; a lesser find
// overlapping it widens the region rather than being dropped, so a
// redaction never leaves part of a secret that some rule saw behind.
func resolve(finds []find) []Match {
	if len(finds) == 0 {
		return nil
	}
	sort.SliceStable(finds, func(i, j int) bool {
		a, b := finds[i], finds[j]
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
	})
	var kept []find
	for _, f := range finds {
		overlapped := false
		for i := range kept {
			if f.start < kept[i].end && kept[i].start < f.end {
				kept[i].start = min(kept[i].start, f.start)
				kept[i].end = max(kept[i].end, f.end)
				overlapped = true
			}
		}
		if !overlapped {
			kept = append(kept, f)
		}
	}
	// Widening can make two kept regions meet; the better one names both.
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].start < kept[j].start })
	out := make([]Match, 0, len(kept))
	tiers := make([]find, 0, len(kept))
	for _, f := range kept {
		if n := len(out); n > 0 && f.start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, f.end)
			if better(f, tiers[n-1]) {
				out[n-1].SecretRef = f.ref
				tiers[n-1] = f
			}
			continue
		}
		out = append(out, Match{SecretRef: f.ref, Start: f.start, End: f.end})
		tiers = append(tiers, f)
	}
	return out
}

func better(a, b find) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	return a.rank < b.rank
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

// covered reports whether an earlier find of the same or a better tier
// already spans [s, e): resolve would fold this one into it unchanged, so
// its allowlists (gitleaks' cost the most) need not run.
func covered(finds []find, s, e, tier int) bool {
	for i := range finds {
		if f := &finds[i]; f.tier <= tier && f.start <= s && e <= f.end {
			return true
		}
	}
	return false
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

// lineAround returns the whole lines spanned by text[s:e].
func lineAround(text string, s, e int) string {
	ls := strings.LastIndexByte(text[:s], '\n') + 1
	le := strings.IndexByte(text[e:], '\n')
	if le < 0 {
		return text[ls:]
	}
	return text[ls : e+le]
}
