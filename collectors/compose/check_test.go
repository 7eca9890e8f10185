package compose

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// FuzzCheck compares check with what it replaces: yaml.v3 decoding the
// document into plain values. Both must refuse the same documents; check
// may only be stricter on alias accounting (it also counts merged values
// that yaml.v3 skips because an earlier mapping set the key).
func FuzzCheck(f *testing.F) {
	for _, s := range append(fuzzSeeds, bomb(), mergeBomb(),
		"a: 1\nb: 2\na: 3\nb: 4\n", "a: &x {k: 1}\nb: {<<: *x, k: 2}\n", "<<: [1]\n", "? [a]\n: 1\n", "? {a: 1}\n: 2\n",
		"a: !!int x\n", "a: !!binary '%%'\n", "a: !!float 1\n", "a: &a [*a]\n", "a: !!str 1\nb: !!bool yes\n",
		"x: &m {a: 1, <<: {b: 2}}\ny: {<<: [*m, {c: 3}], a: 4}\n", "a: {1: x, \"1\": y, 01: z}\n") {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return // yaml.v3's pairwise key check is what check replaces
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var n yaml.Node
			if dec.Decode(&n) != nil {
				return // the end, or a syntax error both report the same way
			}
			var v any
			want := n.Decode(&v)
			got := check(&n)
			switch {
			case want != nil && got == nil:
				t.Fatalf("yaml.v3 refuses the document (%v), check accepts it", want)
			case want == nil && got != nil && !strings.Contains(got.Error(), "excessive aliasing"):
				t.Fatalf("check refuses the document (%v), yaml.v3 accepts it", got)
			}
		}
	})
}

// TestCheckManyKeys: a mapping of 100,000 services with one name written
// twice. yaml.v3's pairwise check took minutes on such a file (issue 13);
// check finds the duplicate at its line in well under the bound.
func TestCheckManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("services:\n")
	const n = 100_000
	for i := range n {
		fmt.Fprintf(&b, "  s%d: {image: x}\n", i)
	}
	b.WriteString("  s7: {image: y}\n")
	start := time.Now()
	_, err := parse([]byte(b.String()))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != n+2 || !strings.Contains(err.Error(), `mapping key already defined at line 9`) {
		t.Errorf("err = %v, want the duplicate s7 at line %d", err, n+2)
	}
}
