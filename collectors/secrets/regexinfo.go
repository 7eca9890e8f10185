package secrets

// Facts about a rule's regular expression read from its parse tree: what
// bytes it may hold, how long it may be, which literals it needs. gate.go
// and the engine use them to skip the regexp where it cannot match.

import "regexp/syntax"

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
