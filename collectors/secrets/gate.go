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

// pass reports whether text may match.
func (g *gate) pass(text string) bool {
	return len(g.windows(text, nil)) > 0
}

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

// byteSet adds to set every byte a match of re may hold (all non-ASCII
// bytes when it may hold a non-ASCII rune).
func byteSet(re *syntax.Regexp, set *[256]bool) bool {
	high := func() {
		for b := 0x80; b < 256; b++ {
			set[b] = true
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= 0x80 || re.Flags&syntax.FoldCase != 0 && ('a' <= r|0x20 && r|0x20 <= 'z') {
				high() // folding reaches K and ſ
			}
			if r < 0x80 {
				set[r] = true
				if re.Flags&syntax.FoldCase != 0 && 'a' <= r|0x20 && r|0x20 <= 'z' {
					set[r^0x20] = true
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x80; r++ {
				set[r] = true
			}
			if re.Rune[i+1] >= 0x80 {
				high()
			}
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		for b := range set {
			set[b] = true
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat, syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !byteSet(sub, set) {
				return false
			}
		}
	default:
		return false
	}
	return true
}

// maxLen is the most bytes a match of re may take, -1 when unbounded.
func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return 4 * len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 4
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		if n := maxLen(re.Sub[0]); n >= 0 && re.Max >= 0 {
			return n * re.Max
		}
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLen(sub)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return -1
}

// expand lists the strings a small, finite node matches (literals, tiny
// classes, alternations, optional parts); ok is false past limit or for
// anything unbounded.
func expand(re *syntax.Regexp, limit int) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == 4 {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return expand(re.Sub[0], limit)
	case syntax.OpQuest:
		sub, ok := expand(re.Sub[0], limit)
		return append(sub, ""), ok && len(sub) < limit
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			sub, ok := expand(s, limit)
			if !ok || len(out)+len(sub) > limit {
				return nil, false
			}
			out = append(out, sub...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			sub, ok := expand(s, limit)
			if !ok || len(out)*len(sub) > limit {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range sub {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// firstBytes lists the ASCII bytes a match of re can start with.
func firstBytes(re *syntax.Regexp) ([]byte, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 || re.Rune[0] >= 0x80 {
			return nil, false
		}
		c := byte(re.Rune[0])
		if re.Flags&syntax.FoldCase != 0 && ('a' <= lower(c) && lower(c) <= 'z') {
			return nil, false // a folded letter also matches K or ſ
		}
		return []byte{c}, true
	case syntax.OpCharClass:
		var out []byte
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= 0x80 {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				out = append(out, byte(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return firstBytes(re.Sub[0])
	case syntax.OpRepeat, syntax.OpPlus:
		if re.Op == syntax.OpRepeat && re.Min < 1 {
			return nil, false
		}
		return firstBytes(re.Sub[0])
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		return firstBytes(re.Sub[0])
	case syntax.OpAlternate:
		var out []byte
		for _, s := range re.Sub {
			b, ok := firstBytes(s)
			if !ok {
				return nil, false
			}
			out = append(out, b...)
		}
		return out, true
	}
	return nil, false
}

// requiredLiterals lists the case-sensitive literals that
// every match of re contains, like RE2's prefilter atoms: a rule whose text
// lacks one cannot match, and strings.Contains is far cheaper than the NFA
// (gitleaks' jwt rule, keyword "ey", needs ".ey").
func requiredLiterals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 && len(re.Rune) > 0 {
			return []string{string(re.Rune)}
		}
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0])
	case syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		for _, sub := range re.Sub {
			out = append(out, requiredLiterals(sub)...)
		}
		return out
	}
	return nil
}
