package secrets

import "regexp/syntax"

// valueGate is a necessary condition for what follows the operator in
// gitleaks' template,
//
//	OP [\x60'"\s=]{0,5} (VALUE) (?:[\x60'"\s;]|\\[nr]|$)
//
// checked in a few byte reads before S runs at a keyword. S itself is
// linear per attempt, but a bounded value such as [\w.=-]{10,150} makes an
// attempt read up to 150 bytes, and "key=key=key=…" holds a keyword every
// four: each byte would be read by ~40 attempts (the NFA's counters keep
// them apart, so no engine shares that work). The gate asks, for each
// alternative of VALUE, whether its first bytes fit it and whether a
// terminator starts where its length allows; a text without one fails at
// every keyword at once.
type valueGate struct {
	opMin, opMax int // the operator's length in bytes (it is ASCII)
	termMax      int // the terminator's length in bytes
	quote        [128]bool
	quoteMax     int
	alts         []valueAlt
	term         [256]bool // bytes a terminator starts with
	termEnd      bool      // the end of the text terminates too
}

// valueAlt is one alternative of VALUE: the bytes it may hold at each of
// its first offsets (ASCII text; the check stops at the first other byte)
// and its length in runes (max -1: unbounded).
type valueAlt struct {
	sets     [][128]bool
	min, max int
	// bytes are all the bytes a match may hold: an unbounded alternative
	// ends within the run of them.
	bytes [256]bool
}

// maxPositions bounds how many leading offsets a valueAlt checks.
const maxPositions = 16

// templateValue builds the gate when S is exactly keyword, gap, gap,
// operator, quotes, (VALUE), terminator; nil otherwise.
func templateValue(rest []*syntax.Regexp) *valueGate {
	if len(rest) != 7 || rest[5].Op != syntax.OpCapture {
		return nil
	}
	op, quotes, value, term := rest[3], rest[4], rest[5].Sub[0], rest[6]
	g := &valueGate{}
	g.opMin, g.opMax = runeLen(op)
	if g.opMin < 1 || g.opMax < 0 || !asciiOnly(op) {
		return nil
	}
	var q runeSet
	if quotes.Op != syntax.OpRepeat || quotes.Min != 0 || quotes.Max < 0 || !q.fromClass(quotes.Sub[0]) || q.kelvin || q.longS {
		return nil
	}
	g.quote, g.quoteMax = q.b, quotes.Max
	if term.Op != syntax.OpAlternate {
		return nil
	}
	if g.termMax = maxLen(term); g.termMax < 0 {
		return nil
	}
	for _, alt := range term.Sub {
		if alt.Op == syntax.OpEndText {
			g.termEnd = true
			continue
		}
		first, ok := firstBytes(alt)
		if !ok {
			return nil
		}
		for _, b := range first {
			g.term[b] = true
		}
	}
	alts := []*syntax.Regexp{value}
	if value.Op == syntax.OpAlternate {
		alts = value.Sub
	}
	for _, a := range alts {
		lo, hi := runeLen(a)
		n := min(lo, maxPositions)
		sets, ok := positions(a, n)
		if !ok {
			return nil
		}
		v := valueAlt{sets: sets, min: lo, max: hi}
		if !byteSet(a, &v.bytes) {
			return nil
		}
		g.alts = append(g.alts, v)
	}
	return g
}

// asciiOnly reports whether every literal and class under re is ASCII.
func asciiOnly(re *syntax.Regexp) bool {
	for _, r := range re.Rune {
		if r >= 0x80 {
			return false
		}
	}
	if re.Flags&syntax.FoldCase != 0 && re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if r|0x20 == 'k' || r|0x20 == 's' {
				return false // folds to K or ſ
			}
		}
	}
	for _, s := range re.Sub {
		if !asciiOnly(s) {
			return false
		}
	}
	return true
}

// check reports whether the value part can match after an operator that
// starts at op, and a bound past which S's match cannot end. The bound
// holds for every alternative at every start, fitting or not: S runs on
// the text cut past it, and an alternative reaching the cut would match
// there through $.
func (g *valueGate) check(text string, op int, ti *termIndex) (bool, int) {
	ok, end := false, 0
	for e := op + g.opMin; e <= op+g.opMax && e <= len(text); e++ {
		for a, k := e, 0; a <= len(text) && k <= g.quoteMax; a, k = a+1, k+1 {
			for i := range g.alts {
				v := &g.alts[i]
				end = max(end, v.reach(text, a, ti, i)+g.termMax)
				ok = ok || v.fits(text, a, ti)
			}
			if a == len(text) || text[a] >= 0x80 || !g.quote[text[a]] {
				break
			}
		}
	}
	return ok, end
}

// fits reports whether the alternative may match at a, followed by a
// terminator.
func (v *valueAlt) fits(text string, a int, ti *termIndex) bool {
	for i := range v.sets {
		if a+i >= len(text) {
			return false
		}
		c := text[a+i]
		if c >= 0x80 {
			break // a multi-byte rune shifts the offsets
		}
		if !v.sets[i][c] {
			return false
		}
	}
	return v.max < 0 || ti.next(a+v.min) <= v.hi(text, a, ti)
}

// hi is where a bounded alternative starting at a ends at the latest: a
// rune is 1 to 4 bytes, 1 when the text ahead is ASCII.
func (v *valueAlt) hi(text string, a int, ti *termIndex) int {
	if ti.high.at(text, a) >= a+v.max {
		return a + v.max
	}
	return a + 4*v.max
}

// reach is where a match of the alternative starting at a ends at the
// latest, whether one exists or not.
func (v *valueAlt) reach(text string, a int, ti *termIndex, alt int) int {
	if v.max >= 0 {
		return v.hi(text, a, ti)
	}
	return ti.runEnd(alt, &v.bytes, a)
}

// runEnd returns where the run of set's bytes starting at a ends, from a
// cache of the last run seen for alternative alt: keywords come in order,
// so runs are read about once.
func (ti *termIndex) runEnd(alt int, set *[256]bool, a int) int {
	for len(ti.runs) <= alt {
		ti.runs = append(ti.runs, [2]int{-1, -1})
	}
	r := &ti.runs[alt]
	if r[0] <= a && a <= r[1] {
		return r[1]
	}
	i := a
	for i < len(ti.text) && set[ti.text[i]] {
		if i == r[0] {
			i = r[1] // joins the cached run
			break
		}
		i++
	}
	*r = [2]int{a, i}
	return i
}

// termIndex answers, for one text, where the next terminator starts and
// where the next non-ASCII byte is, and where runs of an alternative's
// bytes end, for ascending, nearly ascending positions, reading the text
// about once.
type termIndex struct {
	text       string
	g          *valueGate
	term, high nextByte
	runs       [][2]int
}

var highBytes = func() (set [256]bool) {
	for b := 0x80; b < 256; b++ {
		set[b] = true
	}
	return set
}()

func newTermIndex(text string, g *valueGate) *termIndex {
	return &termIndex{text: text, g: g, term: newNextByte(&g.term), high: newNextByte(&highBytes)}
}

// next returns where the next terminator at or after x starts, or a
// number past the text when there is none (len(text) itself when the end
// terminates).
func (ti *termIndex) next(x int) int {
	if i := ti.term.at(ti.text, x); i < len(ti.text) {
		return i
	}
	if ti.g.termEnd && x <= len(ti.text) {
		return len(ti.text)
	}
	return len(ti.text) + 1
}

// nextByte finds the next byte of a set: no member in [lo, pos), and pos
// is one or the end of the text.
type nextByte struct {
	set     *[256]bool
	lo, pos int
}

func newNextByte(set *[256]bool) nextByte { return nextByte{set: set, lo: -1, pos: -1} }

func (nb *nextByte) at(text string, x int) int {
	if x >= len(text) {
		return len(text)
	}
	scan := func(from, to int) int {
		for i := from; i < to; i++ {
			if nb.set[text[i]] {
				return i
			}
		}
		return -1
	}
	switch {
	case nb.lo >= 0 && nb.lo <= x && x <= nb.pos:
	case nb.lo >= 0 && x < nb.lo:
		if i := scan(x, nb.lo); i >= 0 {
			nb.pos = i
		}
		nb.lo = x
	default:
		nb.lo, nb.pos = x, len(text)
		if i := scan(x, len(text)); i >= 0 {
			nb.pos = i
		}
	}
	return nb.pos
}

// runeLen returns the fewest and most runes a match of re holds, -1 for
// no bound.
func runeLen(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune), len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, 1
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, 0
	case syntax.OpCapture:
		return runeLen(re.Sub[0])
	case syntax.OpQuest:
		_, h := runeLen(re.Sub[0])
		return 0, h
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		l, _ := runeLen(re.Sub[0])
		return l, -1
	case syntax.OpRepeat:
		l, h := runeLen(re.Sub[0])
		if re.Max < 0 || h < 0 {
			return l * re.Min, -1
		}
		return l * re.Min, h * re.Max
	case syntax.OpConcat:
		for _, s := range re.Sub {
			l, h := runeLen(s)
			lo += l
			if hi >= 0 {
				if h < 0 {
					hi = -1
				} else {
					hi += h
				}
			}
		}
		return lo, hi
	case syntax.OpAlternate:
		lo = -1
		for _, s := range re.Sub {
			l, h := runeLen(s)
			if lo < 0 || l < lo {
				lo = l
			}
			if hi >= 0 && (h < 0 || h > hi) {
				hi = h
			}
		}
		return max(lo, 0), hi
	}
	return 0, -1
}

// positions lists, for each of the first n rune offsets of a match of re,
// the ASCII bytes that may stand there. ok is false for a node it does not
// know.
func positions(re *syntax.Regexp, n int) (sets [][128]bool, ok bool) {
	sets = make([][128]bool, n)
	mask := uint64(1)<<n - 1
	var walk func(re *syntax.Regexp, at uint64) (uint64, bool)
	mark := func(at uint64, r rune, fold bool) {
		for o := 0; o < n; o++ {
			if at&(1<<o) == 0 || r >= 0x80 {
				continue
			}
			sets[o][r] = true
			if fold && 'a' <= r|0x20 && r|0x20 <= 'z' {
				sets[o][r^0x20] = true
			}
		}
	}
	walk = func(re *syntax.Regexp, at uint64) (uint64, bool) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				mark(at, r, re.Flags&syntax.FoldCase != 0)
				at = at << 1 & mask
			}
			return at, true
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x80; r++ {
					mark(at, r, false)
				}
			}
			return at << 1 & mask, true
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			for r := rune(0); r < 0x80; r++ {
				mark(at, r, false)
			}
			return at << 1 & mask, true
		case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return at, true
		case syntax.OpCapture:
			return walk(re.Sub[0], at)
		case syntax.OpConcat:
			for _, s := range re.Sub {
				var ok bool
				if at, ok = walk(s, at); !ok {
					return 0, false
				}
			}
			return at, true
		case syntax.OpAlternate:
			var out uint64
			for _, s := range re.Sub {
				o, ok := walk(s, at)
				if !ok {
					return 0, false
				}
				out |= o
			}
			return out, true
		case syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
			lo, hi := 0, -1
			switch re.Op {
			case syntax.OpQuest:
				hi = 1
			case syntax.OpPlus:
				lo = 1
			case syntax.OpRepeat:
				lo, hi = re.Min, re.Max
			}
			var out uint64
			if lo == 0 {
				out = at
			}
			cur := at
			for i := 1; hi < 0 || i <= hi; i++ {
				next, ok := walk(re.Sub[0], cur)
				if !ok {
					return 0, false
				}
				if i >= lo {
					if next|out == out && i > lo {
						break // nothing new: later rounds add nothing either
					}
					out |= next
				}
				if next == 0 || i > n+lo+1 {
					break
				}
				cur = next
			}
			return out, true
		}
		return 0, false
	}
	if _, ok := walk(re, 1); !ok && n > 0 {
		return nil, false
	}
	return sets, true
}
