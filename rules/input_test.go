package rules

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func sameAsJSON(t *testing.T, name string, v any) {
	t.Helper()
	want, err := inputJSON(v)
	if err != nil {
		t.Fatalf("%s: through JSON: %v", name, err)
	}
	got, err := Input(v)
	if err != nil {
		t.Fatalf("%s: Input: %v", name, err)
	}
	if got.Compare(want) != 0 {
		t.Errorf("%s: Input differs from the JSON round trip:\n got %v\nwant %v", name, got, want)
	}
}

// TestInputMatchesJSON: Input gives the rules what the JSON round trip
// gives, for the model of every shipped fixture and scenario.
func TestInputMatchesJSON(t *testing.T) {
	dirs, _ := filepath.Glob("../fixtures/*")
	scen, _ := filepath.Glob("../fixtures/scenarios/*")
	n := 0
	for _, d := range append(dirs, scen...) {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		doc, _, err := collectors.Scan(context.Background(), d, collectors.Options{Collectors: registry.All()})
		if err != nil {
			t.Fatal(err)
		}
		doc.Normalize()
		sameAsJSON(t, d, doc)
		n++
	}
	if n < 20 {
		t.Fatalf("only %d fixture folders compared", n)
	}
}

// TestInputEdgeCases: what encoding/json does with embedded structs, name
// clashes, omitempty, nil and empty containers, invalid UTF-8, numbers and
// untyped values.
func TestInputEdgeCases(t *testing.T) {
	type Inner struct {
		A string `json:"a"`
		B int
		C string `json:"c,omitempty"`
	}
	type Other struct {
		A string `json:"a"`
		D bool   `json:"d"`
	}
	type outer struct {
		Inner
		*Other
		model.Loc
		A        string            `json:"a"` // shallower: wins over both embedded a
		Skip     string            `json:"-"`
		private  string            //nolint:unused // not encoded
		Empty    []string          `json:"empty,omitempty"`
		NilSl    []string          `json:"nil_slice"`
		EmptySl  []string          `json:"empty_slice"`
		NilMap   map[string]int    `json:"nil_map"`
		IntKeys  map[int]string    `json:"int_keys"`
		Ptr      *model.Str        `json:"ptr,omitempty"`
		NilPtr   *model.Str        `json:"nil_ptr"`
		Bad      string            `json:"bad"`
		Floats   []float64         `json:"floats"`
		F32      float32           `json:"f32"`
		Any      any               `json:"any"`
		Params   map[string]any    `json:"params"`
		Untagged string            ``
		Nested   map[string][]bool `json:"nested"`
	}
	v := outer{
		Inner: Inner{A: "inner", B: 3}, Loc: model.Loc{File: "f", Line: 2},
		A: "outer", Skip: "x", private: "y", EmptySl: []string{},
		IntKeys: map[int]string{-1: "m", 7: "s"}, Ptr: &model.Str{Value: "v", Loc: model.Loc{File: "g"}},
		Bad: "ok\xffand\xc3(", Floats: []float64{0, 1.5, -2, 1e21, 1e-7, 123456789, 0.000001, math.MaxFloat64},
		F32: 3.14, Any: []any{"s", 1, 2.5, true, nil, map[string]any{"k": []any{}}},
		Params: map[string]any{"n": 10, "nested": map[string]any{"x": "y"}}, Untagged: "u",
		Nested: map[string][]bool{"a": {true}, "b": nil},
	}
	sameAsJSON(t, "edge cases", v)
	sameAsJSON(t, "pointer to it", &v)
	v.Other = &Other{A: "other", D: true}
	sameAsJSON(t, "with the embedded pointer set", v)
	sameAsJSON(t, "nil", nil)
	if _, err := Input(struct{ F float64 }{math.Inf(1)}); err == nil {
		t.Error("an infinite number was accepted")
	}
}

// BenchmarkInput: Input against the JSON round trip it replaced, on the
// model of a generated 1,000-file corpus.
func BenchmarkInput(b *testing.B) {
	dir := b.TempDir()
	if err := corpus.Generate(dir, 1000, 1); err != nil {
		b.Fatal(err)
	}
	doc, _, err := collectors.Scan(context.Background(), dir, collectors.Options{Collectors: registry.All()})
	if err != nil {
		b.Fatal(err)
	}
	doc.Normalize()
	for _, c := range []struct {
		name string
		f    func(any) (ast.Value, error)
	}{{"reflect", Input}, {"json", inputJSON}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.f(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
