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
}

// pass reports whether text may match. Non-ASCII text always may: (?i)
// folds K (Kelvin) to k and ſ to s, which this byte check does not.
func (g *gate) pass(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x80 {
			return true
		}
		for _, li := range g.byFirst[lower(c)] {
			lit := g.lits[li]
			if !hasPrefixFold(text[i:], lit) {
				continue
			}
			for j, n := i+len(lit), 0; j < len(text) && n <= g.maxGap; j, n = j+1, n+1 {
				b := text[j]
				if g.ops[b] || b >= 0x80 {
					return true
				}
				if !g.allow[b] {
					break
				}
			}
		}
	}
	return false
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
	return g
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
