package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// anchored finds a rule's matches in time linear in the text, with the
// same result as re.FindAllStringSubmatchIndex, for the shapes nearly all
// rules have:
//
//	P₁…Pₖ \b? S
//
// where each Pᵢ is a lazy bounded repeat of a character class (gitleaks'
// keyword template opens with (?i)[\w.-]{0,50}?, some vendor rules with
// two), \b is optional, and S begins with a small set of literal keywords
// ("ghp_", "api", "sk-ant-"…).
//
// Go's regexp runs such a rule as an NFA over the whole text: the lazy
// prefix alone keeps ~50 threads alive on every word character (≈2 µs a
// byte for generic-api-key), and a text dense in keywords costs that on
// every byte, for every rule whose keyword it holds. Here S runs anchored
// at each keyword occurrence only, on a slice no longer than S can match.
//
// Why this gives FindAll's answer. Let M be the positions where S matches
// anchored (in the whole text; S looks at nothing before its start). From a
// position pos, R matches at p iff some q ∈ M, q ≥ p, is reachable from p
// through the prefixes (text[p:q] splits into ≤cap₁ runes of class₁ … ≤capₖ
// runes of classₖ). Reachability from p is closed under shorter q, so the
// leftmost p reaches the least q ∈ M at or after pos, and the lazy repeats
// (fewest runes first, leftmost repeat first) stop at that same q when each
// class holds the one before it (class₁ ⊆ … ⊆ classₖ; checked when the
// matcher is built). So the match is [p, end of S at q) with S's groups,
// where p is found by walking back from q: up to capₖ runes of classₖ, then,
// only if all capₖ were taken, up to capₖ₋₁ of classₖ₋₁, and so on, never
// before pos. FindAll goes on from the match's end. FuzzAnchored checks the
// equivalence on random text for every rule.
type anchored struct {
	id   int       // the engine's index of this matcher, for keywordHits
	sets []runeSet // the prefix repeats' classes, left to right
	caps []int     // and their maxima, in runes
	// fixed > 0: the regex opens with exactly fixed runes of sets[0]
	// ([a-z0-9]{14}), and sets holds nothing else.
	fixed int
	wb    bool // S is preceded by \b
	// S compiles on first use (most rules never get that far on a
	// scan, and printing and compiling ~200 trees is most of the engine's
	// start-up); src is its tree, \A followed by the rest of the regex.
	src  *syntax.Regexp
	once sync.Once
	s    *regexp.Regexp
	sMax int // the most bytes S can match, -1 when unbounded

	lits    []keyword
	byFirst [256][]uint8 // lits by their lower-cased first byte
	exact   bool         // no lit folds case: strings.Index finds them

	// op, when set, is a necessary condition for S at a keyword: after the
	// keyword, within maxGap runes of the gap classes, an operator byte;
	// val one for what follows the operator (see valuegate.go).
	op  *opGate
	val *valueGate
}

// keyword is one spelling S may start with; fold says ASCII case (and K,
// ſ for k, s) does not matter.
type keyword struct {
	s    string
	fold bool
}

// opGate is the "keyword, gap, operator" check of gitleaks' template
// (?:KEYWORDS)[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|:|>|…): prose that mentions a
// keyword without assigning anything is ruled out before S runs.
type opGate struct {
	allow  runeSet
	maxGap int
	ops    [256]bool
}

// Kelvin sign and long s: the only non-ASCII runes (?i) folds to ASCII
// letters (k and s), so the only ones a folded ASCII class or keyword can
// match.
const (
	kelvin = "\u212a"
	longS  = "\u017f"
)

// runeSet is a character class limited to ASCII, K and ſ.
type runeSet struct {
	b             [128]bool
	kelvin, longS bool
}

// fromClass fills the set from a CharClass node; false when the class holds
// other non-ASCII runes.
func (c *runeSet) fromClass(re *syntax.Regexp) bool {
	if re.Op != syntax.OpCharClass {
		return false
	}
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			switch {
			case r < 0x80:
				c.b[r] = true
			case r == 0x17f:
				c.longS = true
			case r == 0x212a:
				c.kelvin = true
			default:
				return false
			}
		}
	}
	return true
}

func (c *runeSet) subsetOf(d *runeSet) bool {
	for i, ok := range c.b {
		if ok && !d.b[i] {
			return false
		}
	}
	return (!c.kelvin || d.kelvin) && (!c.longS || d.longS)
}

// at returns the byte length of the member rune starting at text[i], 0
// when that rune is not a member.
func (c *runeSet) at(text string, i int) int {
	switch b := text[i]; {
	case b < 0x80:
		if c.b[b] {
			return 1
		}
	case c.kelvin && strings.HasPrefix(text[i:], kelvin):
		return len(kelvin)
	case c.longS && strings.HasPrefix(text[i:], longS):
		return len(longS)
	}
	return 0
}

// before returns the byte length of the member rune ending at text[i], 0
// when that rune is not a member. K and ſ start with lead bytes that are
// never continuation bytes, so reading them backwards is unambiguous.
func (c *runeSet) before(text string, i int) int {
	switch b := text[i-1]; {
	case b < 0x80:
		if c.b[b] {
			return 1
		}
	case c.kelvin && strings.HasSuffix(text[:i], kelvin):
		return len(kelvin)
	case c.longS && strings.HasSuffix(text[:i], longS):
		return len(longS)
	}
	return 0
}

// matcher finds a rule's matches: re.FindAllStringSubmatchIndex(text, -1).
// ks, when set, lists each anchored part's keyword positions in text (see
// keywordIndex); nil makes each part look for its keywords itself.
type matcher interface {
	findAll(text string, ks *keywordHits) [][]int
	parts() []*anchored
}

// anchoredMatcher builds the linear matcher of re, or nil when re has
// another shape (the rule then runs as a plain regexp). A top-level
// alternation whose branches all have the shape (atlassian-api-token:
// the keyword template | \b(ATATT3…)) is matched branch by branch. p is
// re parsed (syntax.Perl); it is read, not changed.
func anchoredMatcher(re *regexp.Regexp, p *syntax.Regexp) matcher {
	names := re.SubexpNames()[1:]
	if p.Op != syntax.OpAlternate {
		m := anchoredFrom(p, names)
		if m == nil {
			return nil
		}
		return m
	}
	alt := &alternation{groups: len(names)}
	for _, b := range p.Sub {
		n := countCaps(b)
		m := anchoredFrom(b, names[alt.width():alt.width()+n])
		if m == nil {
			return nil
		}
		alt.branches = append(alt.branches, m)
		alt.first = append(alt.first, alt.width())
		alt.sizes = append(alt.sizes, n)
	}
	if alt.width() != len(names) {
		return nil
	}
	return alt
}

func countCaps(re *syntax.Regexp) int {
	n := 0
	if re.Op == syntax.OpCapture {
		n++
	}
	for _, s := range re.Sub {
		n += countCaps(s)
	}
	return n
}

// anchoredFrom builds the matcher of one parse tree whose groups must be
// named names.
func anchoredFrom(p *syntax.Regexp, names []string) *anchored {
	subs := []*syntax.Regexp{p}
	if p.Op == syntax.OpConcat {
		subs = p.Sub
	}
	m := &anchored{}
	i := 0
	if r := subs[0]; r.Op == syntax.OpRepeat && r.Min == r.Max && r.Min > 0 && len(subs) > 1 {
		var set runeSet
		if !set.fromClass(r.Sub[0]) {
			return nil
		}
		m.sets, m.fixed, i = []runeSet{set}, r.Min, 1
	}
	for ; m.fixed == 0 && i < len(subs); i++ {
		r := subs[i]
		if r.Op != syntax.OpRepeat || r.Min != 0 || r.Max <= 0 || r.Flags&syntax.NonGreedy == 0 {
			break
		}
		var set runeSet
		if !set.fromClass(r.Sub[0]) || len(m.sets) > 0 && !m.sets[len(m.sets)-1].subsetOf(&set) {
			return nil
		}
		m.sets = append(m.sets, set)
		m.caps = append(m.caps, r.Max)
	}
	if i < len(subs) && subs[i].Op == syntax.OpWordBoundary {
		m.wb = true
		i++
	}
	rest := subs[i:]
	if len(rest) == 0 || m.wb && len(m.sets) > 0 || m.fixed > 0 && len(rest) > 0 && !anchoredHead(rest[0]) {
		return nil
	}
	lits, full, ok := leadKeywords(rest[0], 64)
	if !ok || len(lits) == 0 || len(lits) > 255 {
		return nil
	}
	m.exact = true
	for _, l := range lits {
		if l.s == "" || l.s[0] >= 0x80 {
			return nil
		}
		if l.fold {
			l.s = strings.ToLower(l.s)
			m.exact = false
		}
		m.byFirst[lower(l.s[0])] = append(m.byFirst[lower(l.s[0])], uint8(len(m.lits)))
		m.lits = append(m.lits, l)
	}
	if got := capNames(rest, nil); !slices.Equal(got, names) {
		return nil
	}
	m.src = &syntax.Regexp{Op: syntax.OpConcat, Sub: append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, rest...)}
	m.sMax = maxLen(&syntax.Regexp{Op: syntax.OpConcat, Sub: rest})
	if full {
		m.op = templateGate(rest)
	}
	if m.op != nil {
		m.val = templateValue(rest)
	}
	// Attempts from different keywords do not share work as the NFA's
	// threads do, so an unbounded S could read the same run once per
	// keyword in it ("eyJa-eyJa-…" without a dot). That cannot happen when
	// S is bounded, or when its unbounded runs hold no operator byte (a
	// keyword inside a run cannot then be followed by its operator), or
	// when each run is safe on its own (see runSafe).
	if m.sMax < 0 && !(m.op != nil && runsAvoid(rest, &m.op.ops)) && !m.runsSafe(rest) {
		return nil
	}
	return m
}

// capNames lists the names of res' groups in the order of their opening
// parentheses, the order of regexp's SubexpNames.
func capNames(res []*syntax.Regexp, names []string) []string {
	for _, r := range res {
		if r.Op == syntax.OpCapture {
			names = append(names, r.Name)
		}
		names = capNames(r.Sub, names)
	}
	return names
}

// sre is S compiled. Its tree came from parsing a regexp that compiled, so
// it compiles too (TestAnchoredCompiles checks every rule's).
func (m *anchored) sre() *regexp.Regexp {
	m.once.Do(func() { m.s = regexp.MustCompile(m.src.String()) })
	return m.s
}

// leadKeywords lists strings one of which every match of re starts with:
// its whole expansion when re is small and finite (full), else the
// expansion of its leading part ("A3T", "AKIA"… of (?:A3T[A-Z0-9]|AKIA|…)
// [A-Z2-7]{16}). Each keyword folds case when any literal of re does.
func leadKeywords(re *syntax.Regexp, limit int) (kws []keyword, full, ok bool) {
	strs, full, ok := lead(re, limit)
	if !ok {
		return nil, false, false
	}
	fold := folds(re)
	for _, s := range strs {
		if s == "" {
			return nil, false, false
		}
		kws = append(kws, keyword{s, fold})
	}
	return kws, full, true
}

func lead(re *syntax.Regexp, limit int) (strs []string, full, ok bool) {
	if strs, ok := expand(re, limit); ok {
		return strs, true, true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		strs, _, ok := lead(re.Sub[0], limit)
		return strs, false, ok
	case syntax.OpRepeat:
		if re.Min >= 1 {
			strs, _, ok := lead(re.Sub[0], limit)
			return strs, false, ok
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			s, _, ok := lead(sub, limit)
			if !ok || len(strs)+len(s) > limit {
				return nil, false, false
			}
			strs = append(strs, s...)
		}
		return strs, false, true
	case syntax.OpConcat:
		strs = []string{""}
		for _, sub := range re.Sub {
			part, whole, ok := lead(sub, limit)
			if !ok || len(strs)*len(part) > limit {
				break
			}
			var next []string
			for _, a := range strs {
				for _, b := range part {
					next = append(next, a+b)
				}
			}
			strs = next
			if !whole {
				break
			}
		}
		return strs, false, len(strs) > 1 || strs[0] != ""
	}
	return nil, false, false
}

// folds reports whether any literal or class under re folds case.
func folds(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 && (re.Op == syntax.OpLiteral || re.Op == syntax.OpCharClass) {
		return true
	}
	for _, s := range re.Sub {
		if folds(s) {
			return true
		}
	}
	return false
}

// runsSafe reports whether no unbounded run of S can be read by more than
// a bounded number of attempts. A run is safe when
//   - nothing after it must match (S ends with it, "ghs_[…]{36,}"): an
//     attempt that reaches it succeeds and the match consumes the run;
//   - every keyword holds a byte the run cannot ("://" and the URL parts):
//     no keyword lies inside it, so no attempt starts there; or
//   - S needs \b before the keyword and the run holds only ASCII word
//     bytes: inside it there is no boundary to start at.
func (m *anchored) runsSafe(rest []*syntax.Regexp) bool {
	var seq []*syntax.Regexp
	var flat func(re *syntax.Regexp)
	flat = func(re *syntax.Regexp) {
		if re.Op == syntax.OpConcat || re.Op == syntax.OpCapture {
			for _, s := range re.Sub {
				flat(s)
			}
			return
		}
		seq = append(seq, re)
	}
	for _, re := range rest {
		flat(re)
	}
	for i, re := range seq {
		_, hi := runeLen(re)
		if hi >= 0 {
			continue
		}
		if re.Op != syntax.OpStar && re.Op != syntax.OpPlus && re.Op != syntax.OpRepeat {
			return false // an unbounded alternation or group: no simple run
		}
		var class [256]bool
		if !byteSet(re.Sub[0], &class) {
			return false
		}
		tailEmpty := true
		for _, after := range seq[i+1:] {
			if lo, _ := runeLen(after); lo > 0 {
				tailEmpty = false
			}
		}
		keywordsOut := true
		for _, l := range m.lits {
			inside := true
			for j := 0; j < len(l.s); j++ {
				b := l.s[j]
				folded := l.fold && (isLetter(b) && class[b^0x20] || b == 'k' && class[kelvin[0]] || b == 's' && class[longS[0]])
				if !class[b] && !folded {
					inside = false
				}
			}
			// A folded keyword may also be spelt in the other case.
			if inside {
				keywordsOut = false
			}
		}
		words := m.wb
		for b := range class {
			if class[b] && (b >= 0x80 || !isWordByte(byte(b))) {
				words = false
			}
		}
		if !tailEmpty && !keywordsOut && !words {
			return false
		}
	}
	return true
}

// anchoredHead reports whether a fixed prefix may precede re: re must not
// look back (a \b or ^ would see the prefix, not the text before it).
func anchoredHead(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass:
		return true
	case syntax.OpCapture, syntax.OpConcat:
		return len(re.Sub) > 0 && anchoredHead(re.Sub[0])
	}
	return false
}

// runsAvoid reports whether every unbounded repeat under subs is a
// repeat of one character class that holds none of the bytes.
func runsAvoid(subs []*syntax.Regexp, bytes *[256]bool) bool {
	for _, re := range subs {
		if re.Op == syntax.OpStar || re.Op == syntax.OpPlus || re.Op == syntax.OpRepeat && re.Max < 0 {
			var set runeSet
			if !set.fromClass(re.Sub[0]) {
				return false
			}
			for b, ok := range set.b {
				if ok && bytes[b] {
					return false
				}
			}
			continue
		}
		if !runsAvoid(re.Sub, bytes) {
			return false
		}
	}
	return true
}

// templateGate builds the operator check when S is gitleaks' template
// after its prefix: keywords, two gap repeats, an operator alternation.
func templateGate(subs []*syntax.Regexp) *opGate {
	if len(subs) < 4 {
		return nil
	}
	gap1, gap2, op := subs[1], subs[2], subs[3]
	if gap1.Op != syntax.OpRepeat || gap2.Op != syntax.OpRepeat || gap1.Min != 0 || gap2.Min != 0 || gap1.Max < 0 || gap2.Max < 0 {
		return nil
	}
	g := &opGate{maxGap: gap1.Max + gap2.Max}
	for _, gap := range []*syntax.Regexp{gap1.Sub[0], gap2.Sub[0]} {
		var set runeSet
		if !set.fromClass(gap) {
			return nil
		}
		for b, ok := range set.b {
			g.allow.b[b] = g.allow.b[b] || ok
		}
		g.allow.kelvin = g.allow.kelvin || set.kelvin
		g.allow.longS = g.allow.longS || set.longS
	}
	first, ok := firstBytes(op)
	if !ok {
		return nil
	}
	for _, b := range first {
		if g.allow.b[b] {
			return nil
		}
		g.ops[b] = true
	}
	return g
}

// after returns where the operator following the keyword that ends at j
// starts, -1 when none does. No operator byte is a gap byte (templateGate
// checks), so the operator starts at the first byte past the gap.
func (g *opGate) after(text string, j int) int {
	for n := 0; j < len(text) && n <= g.maxGap; n++ {
		if c := text[j]; c < 0x80 && g.ops[c] {
			return j
		}
		size := g.allow.at(text, j)
		if size == 0 {
			return -1
		}
		j += size
	}
	return -1
}

// foldPrefix returns the byte length of the keyword at the start of s, 0
// when s does not start with it.
func (k *keyword) prefix(s string) int {
	if !k.fold {
		if strings.HasPrefix(s, k.s) {
			return len(k.s)
		}
		return 0
	}
	j := 0
	for i := 0; i < len(k.s); i++ {
		if j >= len(s) {
			return 0
		}
		c := k.s[i]
		switch {
		case lower(s[j]) == c && s[j] < 0x80:
			j++
		case c == 'k' && strings.HasPrefix(s[j:], kelvin):
			j += len(kelvin)
		case c == 's' && strings.HasPrefix(s[j:], longS):
			j += len(longS)
		default:
			return 0
		}
	}
	return j
}

// candidate reports whether S may match at text[q] (a keyword starts
// there, followed by an operator and a possible value for the template)
// and returns a bound past which no such match can end.
func (m *anchored) candidate(text string, q int, c *cursor) (bool, int) {
	var first byte
	switch c := text[q]; {
	case c < 0x80:
		first = lower(c)
	case !m.exact && strings.HasPrefix(text[q:], kelvin):
		first = 'k'
	case !m.exact && strings.HasPrefix(text[q:], longS):
		first = 's'
	default:
		return false, 0
	}
	lim := len(text)
	if m.sMax >= 0 {
		lim = min(lim, q+m.sMax)
	}
	ok, end := false, 0
	for _, li := range m.byFirst[first] {
		n := m.lits[li].prefix(text[q:])
		if n == 0 {
			continue
		}
		if m.op == nil {
			return true, lim
		}
		op := m.op.after(text, q+n)
		if op < 0 {
			continue
		}
		if m.val == nil {
			return true, lim
		}
		if fits, e := m.val.check(text, op, c.termIndex()); fits {
			ok, end = true, max(end, e)
		}
	}
	return ok, min(lim, end)
}

func (m *anchored) parts() []*anchored { return []*anchored{m} }

func (a *alternation) parts() []*anchored { return a.branches }

// findAll is re.FindAllStringSubmatchIndex(text, -1).
func (m *anchored) findAll(text string, ks *keywordHits) [][]int {
	var out [][]int
	c := m.cursor(text, ks)
	for pos := 0; ; {
		loc := c.next(pos)
		if loc == nil {
			return out
		}
		out = append(out, loc)
		pos = loc[1]
	}
}

// cursor walks one text: next(pos) is the leftmost match starting at or
// after pos, for pos that never goes back. Keywords rejected once stay
// rejected (S anchored at q does not depend on pos); the accepted one is
// kept until pos passes it.
type cursor struct {
	m       *anchored
	text    string
	indexed bool  // an index found the keywords: hits
	hits    []int // the keyword positions
	hi      int   // hits[:hi] are behind
	at      []int // else, with exact keywords, each one's next position
	atBuf   [4]int
	ti      *termIndex // made when the first keyword needs it
	from    int        // keywords before from were rejected
	q       int        // the accepted keyword, -1 for none yet
	loc     []int      // S's match there
}

func (m *anchored) cursor(text string, ks *keywordHits) *cursor {
	c := &cursor{m: m, text: text, q: -1}
	if ks != nil {
		c.indexed, c.hits = true, ks.lists[m.id]
	} else if m.exact {
		c.at = c.atBuf[:0]
		for range m.lits {
			c.at = append(c.at, -1)
		}
	}
	return c
}

// termIndex returns the cursor's terminator index, made on first use: most
// texts hold no keyword of most rules.
func (c *cursor) termIndex() *termIndex {
	if c.ti == nil && c.m.val != nil {
		c.ti = newTermIndex(c.text, c.m.val)
	}
	return c.ti
}

// candidateAt returns the first keyword position at or after from: with
// exact keywords strings.Index skips to it, each keyword's next position
// kept so the text is read once per keyword whatever order they come in.
func (c *cursor) candidateAt(from int) int {
	if c.indexed {
		for c.hi < len(c.hits) && c.hits[c.hi] < from {
			c.hi++
		}
		if c.hi == len(c.hits) {
			return len(c.text)
		}
		return c.hits[c.hi]
	}
	if !c.m.exact {
		return from
	}
	best := len(c.text)
	for i := range c.m.lits {
		if c.at[i] < from && c.at[i] != len(c.text) {
			if k := strings.Index(c.text[from:], c.m.lits[i].s); k >= 0 {
				c.at[i] = from + k
			} else {
				c.at[i] = len(c.text)
			}
		}
		best = min(best, c.at[i])
	}
	return best
}

func (c *cursor) next(pos int) []int {
	m, text := c.m, c.text
	for {
		if c.q < pos {
			c.q, c.loc = -1, nil
			for q := c.candidateAt(max(pos, c.from)); q < len(text); q = c.candidateAt(q + 1) {
				c.from = q + 1
				ok, end := m.candidate(text, q, c)
				if !ok || m.wb && !wordBoundary(text, q) {
					continue
				}
				// No match ends past end, so a slice one byte longer gives
				// the same answer ($ cannot hold where no match ends) and
				// lets regexp use its backtracker on short slices.
				loc := m.sre().FindStringSubmatchIndex(text[q:min(len(text), end+1)])
				if loc == nil || loc[1] == 0 {
					continue // no rule's S matches empty; were one to, skip it
				}
				for k := range loc {
					if loc[k] >= 0 {
						loc[k] += q
					}
				}
				c.q, c.loc = q, loc
				break
			}
			if c.loc == nil {
				c.q = len(text) + 1 // none left: every later pos too
				return nil
			}
		}
		if c.loc == nil {
			return nil
		}
		start, ok := m.start(text, c.q, pos)
		if !ok {
			c.q = -1 // a fixed prefix does not fit (and never will: pos only grows)
			continue
		}
		loc := append([]int(nil), c.loc...)
		loc[0] = start
		return loc
	}
}

// alternation is a top-level A|B|…: at each position the leftmost match of
// any branch wins, the first branch on a tie, as in Go's leftmost-first
// semantics; each branch's groups keep their place in the whole.
type alternation struct {
	branches     []*anchored
	first, sizes []int // each branch's first group index (0-based) and count
	groups       int
}

func (a *alternation) width() int {
	n := 0
	for _, s := range a.sizes {
		n += s
	}
	return n
}

func (a *alternation) findAll(text string, ks *keywordHits) [][]int {
	cs := make([]*cursor, len(a.branches))
	for i, b := range a.branches {
		cs[i] = b.cursor(text, ks)
	}
	var out [][]int
	for pos := 0; ; {
		var best []int
		bi := -1
		for i, c := range cs {
			if loc := c.next(pos); loc != nil && (best == nil || loc[0] < best[0]) {
				best, bi = loc, i
			}
		}
		if best == nil {
			return out
		}
		loc := make([]int, 2+2*a.groups)
		for k := range loc {
			loc[k] = -1
		}
		loc[0], loc[1] = best[0], best[1]
		copy(loc[2+2*a.first[bi]:], best[2:])
		out = append(out, loc)
		pos = best[1]
	}
}

// start walks back from q through the prefix classes, rightmost first;
// ok is false when a fixed prefix (X{n}) does not fit before q and pos.
func (m *anchored) start(text string, q, pos int) (int, bool) {
	p := q
	if m.fixed > 0 {
		for n := 0; n < m.fixed; n++ {
			size := 0
			if p > pos {
				size = m.sets[0].before(text, p)
			}
			if size == 0 {
				return 0, false
			}
			p -= size
		}
		return p, true
	}
	for k := len(m.sets) - 1; k >= 0; k-- {
		n := 0
		for ; n < m.caps[k] && p > pos; n++ {
			size := m.sets[k].before(text, p)
			if size == 0 {
				return p, true
			}
			p -= size
		}
		if n < m.caps[k] {
			return p, true
		}
	}
	return p, true
}

// wordBoundary is \b at text[q] as Go's regexp sees it: ASCII word bytes.
func wordBoundary(text string, q int) bool {
	before := q > 0 && isWordByte(text[q-1])
	after := q < len(text) && isWordByte(text[q])
	return before != after
}
