package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// gate is a cheap necessary condition for gitleaks' "keyword = value"
// template rules, (?i)[\w.-]{0,50}?(?:KEYWORDS)[ \t\w.-]{0,20}[\s'"]{0,3}
// (?:=|:|>|,|…)…: some keyword must be followed, within the gap, by an
// assignment operator. Go's regexp has no DFA, and generic-api-key's NFA
// costs ~0.3 ms per KB; this check reads the text once in a few µs and
// rules out prose ("the API token is forwarded from …") before it runs.
//
// The gate is derived from the rule's own parse tree, so it holds for
// whatever gitleaks version is pinned; a rule of another shape gets none.
type gate struct {
	lits    []string     // lower-cased keyword spellings
	byFirst [256][]uint8 // lits indexes by first byte
	allow   [256]bool    // bytes the gap may hold
	ops     [256]bool    // first bytes of an operator
	maxGap  int

	// Windowing: a match starts at most before bytes ahead of its keyword
	// and, from the operator on, holds at most head bytes of the operator
	// and quote sets (near), then bytes of the value set (value), then a
	// terminator of at most term bytes. windowed is false when the rule's
	// shape does not allow these bounds.
	windowed           bool
	before, head, term int
	near, value        [256]bool
}

// span is a window [s, e) of the text.
type span struct{ s, e int }

// windows returns the disjoint parts of text that hold every match of the
// rule: one per keyword followed by an operator, merged where they touch.
// Non-ASCII text is one window: (?i) folds K (Kelvin) to k and ſ to s,
// which this byte check does not.
func (g *gate) windows(text string, out []span) []span {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x80 {
			return append(out[:0], span{0, len(text)})
		}
		for _, li := range g.byFirst[lower(c)] {
			lit := g.lits[li]
			if !hasPrefixFold(text[i:], lit) {
				continue
			}
			op := -1
			for j, n := i+len(lit), 0; j < len(text) && n <= g.maxGap; j, n = j+1, n+1 {
				b := text[j]
				if b >= 0x80 {
					return append(out[:0], span{0, len(text)})
				}
				if g.ops[b] {
					op = j
					break
				}
				if !g.allow[b] {
					break
				}
			}
			if op < 0 {
				continue
			}
			w := span{0, len(text)}
			if g.windowed {
				w = span{max(0, i-g.before), g.end(text, op)}
			}
			if n := len(out); n > 0 && w.s <= out[n-1].e {
				out[n-1].e = max(out[n-1].e, w.e)
			} else {
				out = append(out, w)
			}
		}
	}
	return out
}

// end bounds the end of a match whose operator starts at op.
func (g *gate) end(text string, op int) int {
	e := op
	for n := 0; n < g.head && e < len(text) && g.near[text[e]]; n++ {
		e++
	}
	for e < len(text) && g.value[text[e]] {
		e++
	}
	return min(len(text), e+g.term+1)
}

// findAll is re.FindAllStringSubmatchIndex over the windows only, with
// indexes into text. Every match lies inside one window (see gate), and a
// window's edges are never where a match could use ^, $ or \b.
func (g *gate) findAll(re *regexp.Regexp, text string) [][]int {
	ws := g.windows(text, nil)
	if len(ws) == 1 && ws[0] == (span{0, len(text)}) {
		return re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][]int
	for _, w := range ws {
		for _, loc := range re.FindAllStringSubmatchIndex(text[w.s:w.e], -1) {
			for k := range loc {
				if loc[k] >= 0 {
					loc[k] += w.s
				}
			}
			out = append(out, loc)
		}
	}
	return out
}

// templateGate builds the gate of a template rule, or nil when re is not
// one: a concatenation of a lazy prefix, a keyword set, two gap classes and
// an operator alternation.
func templateGate(re *regexp.Regexp) *gate {
	p, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil || p.Op != syntax.OpConcat || len(p.Sub) < 5 {
		return nil
	}
	pre, kw, gap1, gap2, op := p.Sub[0], p.Sub[1], p.Sub[2], p.Sub[3], p.Sub[4]
	if pre.Op != syntax.OpRepeat || pre.Min != 0 || gap1.Op != syntax.OpRepeat || gap2.Op != syntax.OpRepeat ||
		gap1.Min != 0 || gap2.Min != 0 || gap1.Sub[0].Op != syntax.OpCharClass || gap2.Sub[0].Op != syntax.OpCharClass {
		return nil
	}
	lits, ok := expand(kw, 64)
	if !ok || len(lits) == 0 {
		return nil
	}
	g := &gate{maxGap: gap1.Max + gap2.Max}
	if gap1.Max < 0 || gap2.Max < 0 {
		return nil
	}
	for _, l := range lits {
		l = strings.ToLower(l)
		if l == "" || len(g.lits) == 255 || l[0] >= 0x80 {
			return nil
		}
		g.byFirst[l[0]] = append(g.byFirst[l[0]], uint8(len(g.lits)))
		g.lits = append(g.lits, l)
	}
	for _, cls := range []*syntax.Regexp{gap1.Sub[0], gap2.Sub[0]} {
		for i := 0; i+1 < len(cls.Rune); i += 2 {
			for r := cls.Rune[i]; r <= cls.Rune[i+1] && r < 0x80; r++ {
				g.allow[r] = true
			}
		}
	}
	first, ok := firstBytes(op)
	if !ok {
		return nil
	}
	for _, b := range first {
		g.ops[b] = true
	}
	g.window(p)
	return g
}

// window sets the windowing bounds when the rule is exactly prefix,
// keywords, gap, gap, operator, quotes, value, terminator (the template
// gitleaks generates), and leaves windowed false otherwise.
func (g *gate) window(p *syntax.Regexp) {
	if len(p.Sub) != 8 || p.Sub[0].Max < 0 || p.Sub[5].Op != syntax.OpRepeat {
		return
	}
	opMax, quoteMax, term := maxLen(p.Sub[4]), p.Sub[5].Max, maxLen(p.Sub[7])
	if opMax < 0 || quoteMax < 0 || term < 0 {
		return
	}
	var near, value [256]bool
	if !byteSet(p.Sub[4], &near) || !byteSet(p.Sub[5], &near) || !byteSet(p.Sub[6], &value) {
		return
	}
	for b, ok := range value {
		near[b] = near[b] || ok
	}
	g.windowed, g.before, g.head, g.term = true, p.Sub[0].Max, opMax+quoteMax, term
	g.near, g.value = near, value
}
