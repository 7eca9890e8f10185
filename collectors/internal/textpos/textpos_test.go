package textpos

import (
	"bytes"
	"testing"
)

func TestLine(t *testing.T) {
	ls := New([]byte("ab\ncd\n\nef"))
	for off, want := range map[int]int{0: 1, 2: 1, 3: 2, 5: 2, 6: 3, 7: 4, 8: 4} {
		if got := ls.Line(off); got != want {
			t.Errorf("Line(%d) = %d, want %d", off, got, want)
		}
	}
	if n := len(New(nil)); n != 1 {
		t.Errorf("empty text has %d line starts, want 1", n)
	}
}

func BenchmarkNew(b *testing.B) {
	text := bytes.Repeat([]byte(`    "node_modules/pkg": {"version": "1.2.3"},`+"\n"), 16000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		New(text)
	}
}
