// Package textpos turns byte offsets into 1-based line numbers: the one
// index every collector that parses without line information shares.
package textpos

import (
	"bytes"
	"sort"
)

// Lines holds the byte offset of every line start.
type Lines []int

// New indexes text once. bytes.Count and bytes.IndexByte are vectorised:
// a 700 kB lockfile is indexed several times faster than byte by byte.
func New(text []byte) Lines {
	ls := make(Lines, 1, bytes.Count(text, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return ls
		}
		off += i + 1
		ls = append(ls, off)
	}
}

// Line is the 1-based line holding byte offset off.
func (ls Lines) Line(off int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > off })
}
