package secrets

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWords compares the automaton with the obvious search: at each end
// position, the longest word ending there.
func TestWords(t *testing.T) {
	f := newFaker(16)
	for round := 0; round < 200; round++ {
		alphabet := "ab"
		if round%2 == 1 {
			alphabet = "abcA-"
		}
		var list []string
		for n := f.r.IntN(12); n >= 0; n-- {
			list = append(list, f.s(alphabet, f.r.IntN(6)))
		}
		text := f.s(alphabet, f.r.IntN(80))
		type hit struct{ End, N int }
		var want, got []hit
		for end := 1; end <= len(text); end++ {
			best := 0
			for _, w := range list {
				if w != "" && len(w) > best && strings.HasSuffix(text[:end], w) {
					best = len(w)
				}
			}
			if best > 0 {
				want = append(want, hit{end, best})
			}
		}
		newWords(list).each(text, func(end, n int) bool { got = append(got, hit{end, n}); return true })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("words %q in %q (-want +got):\n%s", list, text, diff)
		}
		if a := newWords(list).any(text); a != (len(want) > 0) {
			t.Fatalf("any(%q) in %q = %v", list, text, a)
		}
	}
	if newWords(nil).any("anything") {
		t.Error("the empty set matched")
	}
}

// TestWordsEvery: every occurrence of every word, case-folded as (?i)
// folds ASCII (K and ſ included), with the byte offset it starts at.
func TestWordsEvery(t *testing.T) {
	f := newFaker(17)
	fold := func(s string) (string, []int) {
		var syms []byte
		var starts []int
		for i := 0; i < len(s); i++ {
			starts = append(starts, i)
			switch {
			case strings.HasPrefix(s[i:], kelvin):
				syms = append(syms, 'k')
				i += len(kelvin) - 1
			case strings.HasPrefix(s[i:], longS):
				syms = append(syms, 's')
				i += len(longS) - 1
			default:
				syms = append(syms, lower(s[i]))
			}
		}
		return string(syms), starts
	}
	for round := 0; round < 300; round++ {
		list := map[string]bool{}
		for n := 1 + f.r.IntN(8); n > 0; n-- {
			list[f.s("aks", 1+f.r.IntN(4))] = true
		}
		var sorted []string
		for w := range list {
			sorted = append(sorted, w)
		}
		sort.Strings(sorted)
		var b strings.Builder
		for n := f.r.IntN(30); n > 0; n-- {
			b.WriteString([]string{"a", "A", "k", "K", "s", "S", kelvin, longS, "é"}[f.r.IntN(9)])
		}
		text := b.String()
		syms, starts := fold(text)
		type hit struct{ Start, Word int }
		var want, got []hit
		for end := 1; end <= len(syms); end++ {
			for i, w := range sorted {
				if strings.HasSuffix(syms[:end], w) {
					want = append(want, hit{starts[end-len(w)], i})
				}
			}
		}
		newWordList(sorted).every(text, func(start int, w int32) { got = append(got, hit{start, int(w)}) })
		sort.Slice(want, func(i, j int) bool {
			return want[i].Start < want[j].Start || want[i].Start == want[j].Start && want[i].Word < want[j].Word
		})
		sort.Slice(got, func(i, j int) bool {
			return got[i].Start < got[j].Start || got[i].Start == got[j].Start && got[i].Word < got[j].Word
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("words %q in %q (-want +got):\n%s", sorted, text, diff)
		}
	}
}
