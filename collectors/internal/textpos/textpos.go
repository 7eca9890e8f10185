// Package textpos turns byte offsets into 1-based line numbers: the one
// index every collector that parses without line information shares.
package textpos

import "sort"

// Lines holds the byte offset of every line start.
type Lines []int

// New indexes text once.
func New(text []byte) Lines {
	ls := Lines{0}
	for i, b := range text {
		if b == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// Line is the 1-based line holding byte offset off.
func (ls Lines) Line(off int) int {
	return sort.Search(len(ls), func(i int) bool { return ls[i] > off })
}
