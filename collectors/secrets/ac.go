package secrets

import (
	"slices"
	"sort"
	"strings"
)

// words is an Aho–Corasick automaton over a set of strings: it reports
// where any of them occurs in a text in one pass, however many there are.
// Redact uses it to find every repeat of the secrets a scan detected, and
// the gitleaks allowlists to look for their stop words.
//
// The trie is built breadth first from the sorted words, so a node's
// children are consecutive nodes sorted by byte: a node costs 15 bytes and
// a transition a binary search, with no map or 256-entry row per node.
type words struct {
	label []byte  // the byte on the edge into each node
	first []int32 // each node's first child
	count []uint16
	fail  []int32
	// hit is the length of the longest word ending at the node (its own
	// or one on its fail chain), 0 when none.
	hit  []int32
	root [256]int32 // the root's children, -1 for none
	// With every (newWordList), each node's word (its index in the sorted
	// list, -1 for none) and the next node on its fail chain that ends a
	// word, so every word ending at a position can be listed.
	word, dict []int32
	list       []string
}

func newWords(list []string) *words {
	ps := slices.Clone(list)
	sort.Strings(ps)
	ps = slices.Compact(ps)
	for len(ps) > 0 && ps[0] == "" {
		ps = ps[1:]
	}
	return build(ps, false)
}

// newWordList is newWords for listing every word at every position (each,
// by contrast, gives the longest); list must be sorted, distinct, without
// "".
func newWordList(list []string) *words { return build(list, true) }

func build(ps []string, every bool) *words {
	w := &words{label: []byte{0}, first: []int32{0}, count: []uint16{0}, fail: []int32{0}, hit: []int32{0}}
	for i := range w.root {
		w.root[i] = -1
	}
	// span[n] is the range of ps whose first depth[n] bytes spell node n.
	type span struct{ lo, hi, depth int32 }
	spans := []span{{0, int32(len(ps)), 0}}
	for n := 0; n < len(spans); n++ {
		sp := spans[n]
		w.first[n] = int32(len(w.label))
		for i := sp.lo; i < sp.hi; {
			if int(sp.depth) == len(ps[i]) {
				w.hit[n] = sp.depth // the shortest word sorts first
				if every {
					for len(w.word) <= n {
						w.word = append(w.word, -1)
					}
					w.word[n] = i
				}
				i++
				continue
			}
			b := ps[i][sp.depth]
			j := i + 1
			for j < sp.hi && ps[j][sp.depth] == b {
				j++
			}
			c := int32(len(w.label))
			w.label = append(w.label, b)
			w.first = append(w.first, 0)
			w.count = append(w.count, 0)
			w.fail = append(w.fail, 0)
			w.hit = append(w.hit, 0)
			w.count[n]++
			if n == 0 {
				w.root[b] = c
			}
			spans = append(spans, span{i, j, sp.depth + 1})
			i = j
		}
	}
	if every {
		w.list = ps
		for len(w.word) < len(w.label) {
			w.word = append(w.word, -1)
		}
		w.dict = make([]int32, len(w.label))
	}
	// Breadth first is node order: a node's fail link is the longest
	// proper suffix of its string that is also a node.
	for n := int32(0); n < int32(len(w.label)); n++ {
		for c := w.first[n]; c < w.first[n]+int32(w.count[n]); c++ {
			if n != 0 {
				b := w.label[c]
				f := w.fail[n]
				for f != 0 && w.child(f, b) < 0 {
					f = w.fail[f]
				}
				if g := w.child(f, b); g >= 0 {
					w.fail[c] = g
				}
			}
			if w.hit[c] == 0 {
				w.hit[c] = w.hit[w.fail[c]]
			}
			if every {
				if f := w.fail[c]; w.word[f] >= 0 {
					w.dict[c] = f
				} else {
					w.dict[c] = w.dict[f]
				}
			}
		}
	}
	return w
}

// every calls f with the start of every occurrence of every word in text
// and the word's index in the list, reading text as (?i) does for ASCII
// words: in lower case, with K (Kelvin) as k and ſ (long s) as s.
func (w *words) every(text string, f func(start int, word int32)) {
	// starts[k%len] is the byte offset of the k-th symbol fed, so a word
	// spelt through K or ſ still reports where it starts.
	longest := 0
	for _, s := range w.list {
		longest = max(longest, len(s))
	}
	starts := make([]int, longest+1)
	n, k := int32(0), 0
	for i := 0; i < len(text); i++ {
		at := i
		b := text[i]
		switch {
		case b < 0x80:
			b = lower(b)
		case b == kelvin[0] && strings.HasPrefix(text[i:], kelvin):
			b, i = 'k', i+len(kelvin)-1
		case b == longS[0] && strings.HasPrefix(text[i:], longS):
			b, i = 's', i+len(longS)-1
		}
		starts[k%len(starts)] = at
		for n != 0 && w.child(n, b) < 0 {
			n = w.fail[n]
		}
		if c := w.child(n, b); c >= 0 {
			n = c
		}
		for d := n; d != 0; d = w.dict[d] {
			if id := w.word[d]; id >= 0 {
				f(starts[(k-len(w.list[id])+1+len(starts))%len(starts)], id)
			}
		}
		k++
	}
}

// keywordIndex finds in one pass where the keywords of every anchored
// matcher occur, instead of each matcher reading the text for its own: a
// text that holds every rule's keyword would otherwise be read once per
// rule.
type keywordIndex struct {
	w      *words
	owners [][]int32 // per word, the matchers it is a keyword of
	n      int
}

// keywordHits lists, per matcher id, the sorted positions of its keywords.
type keywordHits struct {
	lists [][]int
}

func newKeywordIndex(ms []*anchored) *keywordIndex {
	owner := map[string][]int32{}
	for _, m := range ms {
		for _, l := range m.lits {
			k := strings.ToLower(l.s)
			owner[k] = append(owner[k], int32(m.id))
		}
	}
	list := make([]string, 0, len(owner))
	for k := range owner {
		list = append(list, k)
	}
	sort.Strings(list)
	ki := &keywordIndex{w: newWordList(list), n: len(ms)}
	for _, k := range list {
		ki.owners = append(ki.owners, slices.Compact(owner[k]))
	}
	return ki
}

// find lists the keyword positions of the matchers want selects.
func (ki *keywordIndex) find(text string, want []bool) *keywordHits {
	h := &keywordHits{lists: make([][]int, ki.n)}
	ki.w.every(text, func(start int, word int32) {
		for _, id := range ki.owners[word] {
			if want[id] {
				h.lists[id] = append(h.lists[id], start)
			}
		}
	})
	for id, l := range h.lists {
		if len(l) > 1 && !slices.IsSorted(l) {
			slices.Sort(l)
		}
		h.lists[id] = slices.Compact(l)
	}
	return h
}

func (w *words) child(n int32, b byte) int32 {
	if n == 0 {
		return w.root[b]
	}
	lo, hi := w.first[n], w.first[n]+int32(w.count[n])
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		switch l := w.label[mid]; {
		case l == b:
			return mid
		case l < b:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// each calls f with the end and length of the longest word ending at
// every position of text where one ends, left to right, until f returns
// false.
func (w *words) each(text string, f func(end, n int) bool) {
	n := int32(0)
	for i := 0; i < len(text); i++ {
		b := text[i]
		for n != 0 && w.child(n, b) < 0 {
			n = w.fail[n]
		}
		if c := w.child(n, b); c >= 0 {
			n = c
		}
		if h := w.hit[n]; h > 0 && !f(i+1, int(h)) {
			return
		}
	}
}

// any reports whether some word occurs in text.
func (w *words) any(text string) bool {
	found := false
	w.each(text, func(int, int) bool { found = true; return false })
	return found
}
