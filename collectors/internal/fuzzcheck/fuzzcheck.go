// Package fuzzcheck holds the properties every collector owes any input,
// for the collectors' fuzz targets: Collect returns in bounded time without
// panicking, its error is a *collectors.ParseError (naming a line of the
// file when the format has lines), collecting the same input twice gives the
// same document and error, every location it records lies inside the file,
// and the document marshals to the JSON the rules read.
package fuzzcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Timeout bounds one Collect. Configuration files parse in milliseconds;
// the bound is loose because fuzz workers share a busy machine.
const Timeout = 10 * time.Second

// Options says what a format promises.
type Options struct {
	// NoLines: the format has no lines to name (errors may carry line 0).
	NoLines bool
}

// Seed adds to f's corpus every file matching the globs (the project's
// fixtures) and the inline seeds. A glob that matches nothing fails: a moved
// fixture must not quietly empty a corpus.
func Seed(f *testing.F, globs []string, seeds ...string) {
	f.Helper()
	for _, g := range globs {
		paths, err := filepath.Glob(g)
		if err != nil || len(paths) == 0 {
			f.Fatalf("seed glob %s matches no file", g)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

// Collect runs c on data at path twice, checks the properties and returns
// the first run's document and error for the target's own checks. A
// collector that is a collectors.Linker is linked after each run, as the
// scan does.
func Collect(t testing.TB, c collectors.Collector, path string, data []byte, o Options) (*model.Document, error) {
	t.Helper()
	doc, err := run(t, c, path, data)
	again, err2 := run(t, c, path, data)
	if fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("a second Collect of the same input gave another error: %v, then %v", err, err2)
	}
	if diff := cmp.Diff(doc, again); diff != "" {
		t.Fatalf("a second Collect of the same input gave another document (-first +second):\n%s", diff)
	}
	lines := Lines(data)
	if err != nil {
		var pe *collectors.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not a *collectors.ParseError", err, err)
		}
		if !o.NoLines && (pe.Line < 1 || pe.Line > lines) {
			t.Fatalf("error %v names line %d, want 1..%d", err, pe.Line, lines)
		}
	}
	if !o.NoLines {
		Locs(doc, func(where string, l model.Loc) {
			if l.File == path && (l.Line < 1 || l.Line > lines) {
				t.Fatalf("%s at %s:%d, want a line in 1..%d", where, l.File, l.Line, lines)
			}
		})
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Fatalf("document does not marshal: %v", err)
	}
	return doc, err
}

// Lines counts the lines of data under the most liberal reading any of the
// formats uses: LF, CRLF and a lone CR end a line (YAML), and so do NEL,
// U+2028 and U+2029 (YAML 1.1, which yaml.v3 follows).
func Lines(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\u2028")) + bytes.Count(data, []byte("\u2029")) + bytes.Count(data, []byte("\u0085"))
	for i := 0; i < len(data); i++ {
		if data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			n++
		}
	}
	return n
}

func run(t testing.TB, c collectors.Collector, path string, data []byte) (*model.Document, error) {
	t.Helper()
	doc := &model.Document{}
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A copy: a collector must not keep or change the caller's bytes.
		err = c.Collect(context.Background(), path, bytes.Clone(data), doc)
		if l, ok := c.(collectors.Linker); ok {
			l.Link(doc)
		}
	}()
	select {
	case <-done:
	case <-time.After(Timeout):
		t.Fatalf("Collect did not return within %v", Timeout)
	}
	return doc, err
}

// Locs calls fn with every model.Loc reachable from doc that names a file,
// and the Go path of the field that holds it.
func Locs(doc *model.Document, fn func(where string, l model.Loc)) {
	walk(reflect.ValueOf(doc).Elem(), "doc", fn)
}

var locType = reflect.TypeOf(model.Loc{})

func walk(v reflect.Value, where string, fn func(string, model.Loc)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), where, fn)
		}
	case reflect.Struct:
		if v.Type() == locType {
			if l := v.Interface().(model.Loc); l.File != "" {
				fn(where, l)
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				walk(v.Field(i), where+"."+f.Name, fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", where, i), fn)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			walk(it.Value(), fmt.Sprintf("%s[%v]", where, it.Key()), fn)
		}
	}
}
