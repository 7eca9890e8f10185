package shell

import "strings"

// Mentions reports whether text refers to the variable name: $NAME or
// ${NAME…}, not followed by another name character ($NAMES and ${NAMEX}
// are other variables). A textual test, for lines a parser may not take
// (a workflow's run line with ${{ }} left in, a RUN with heredocs).
func Mentions(text, name string) bool {
	for _, sigil := range []string{"$", "${"} {
		ref := sigil + name
		for i := 0; ; {
			j := strings.Index(text[i:], ref)
			if j < 0 {
				break
			}
			end := i + j + len(ref)
			if end == len(text) || !isNameByte(text[end]) {
				return true
			}
			i = end
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
