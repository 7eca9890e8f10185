package secrets

import (
	"regexp"
	"strings"
)

// The private-key rule,
//
//	-----BEGIN…PRIVATE KEY-----(?:[\s\S]*?-----END…PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]*)
//
// as a regexp costs the rest of the text at every header: the lazy body
// looks for a footer to the end before the second branch may win, so a
// text of repeated headers without footers is quadratic (400 KB took a
// minute). findPrivateKeys gives FindAll's answer in one pass: the header
// is matched anchored on a bounded slice, and the next footer is found
// once for all headers before it.
var (
	pkHeader = regexp.MustCompile(`\A-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`)
	pkFooter = regexp.MustCompile(`\A-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`)
	pkBody   = byteClass("+/=\\ \t\n\f\r" + alphanumeric)
)

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func byteClass(members string) (set [256]bool) {
	for i := 0; i < len(members); i++ {
		set[members[i]] = true
	}
	return set
}

// pkMarkMax bounds a header or footer: dashes, BEGIN, 100 label bytes,
// "PRIVATE KEY BLOCK", dashes.
const pkMarkMax = 5 + len("BEGIN") + 100 + len("PRIVATE KEY BLOCK") + 5

func findPrivateKeys(text string) [][]int {
	var out [][]int
	// The first footer at or after from; none (-1) holds for every later
	// from too, and a footer at or after a later from is still the first.
	from, footer, footerEnd := -1, -1, -1
	nextFooter := func(h int) (int, int) {
		if from >= 0 && h >= from && (footer < 0 || footer >= h) {
			return footer, footerEnd
		}
		from, footer, footerEnd = h, -1, -1
		for i := h; ; i++ {
			k := strings.Index(text[i:], "-----END")
			if k < 0 {
				return -1, -1
			}
			i += k
			if loc := pkFooter.FindStringIndex(text[i:min(len(text), i+pkMarkMax+1)]); loc != nil {
				footer, footerEnd = i, i+loc[1]
				return footer, footerEnd
			}
		}
	}
	for pos := 0; pos < len(text); {
		k := strings.Index(text[pos:], "-----BEGIN")
		if k < 0 {
			break
		}
		s := pos + k
		hdr := pkHeader.FindStringIndex(text[s:min(len(text), s+pkMarkMax+1)])
		if hdr == nil {
			pos = s + 1
			continue
		}
		h := s + hdr[1]
		end := h
		if _, fe := nextFooter(h); fe >= 0 {
			end = fe
		} else {
			for end < len(text) && pkBody[text[end]] {
				end++
			}
		}
		out = append(out, []int{s, end})
		pos = end
	}
	return out
}
