package fuzzcheck

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// fake is a collector whose faults the table sets.
type fake struct {
	calls   *int
	collect func(n int, data []byte, doc *model.Document) error
}

func (fake) Name() string        { return "fake" }
func (fake) Match(p string) bool { return true }
func (f fake) Collect(_ context.Context, p string, data []byte, doc *model.Document) error {
	*f.calls++
	return f.collect(*f.calls, data, doc)
}

// recorder stands in for the fuzz target's *testing.T.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestCollectCatches(t *testing.T) {
	workload := func(line int) model.Workload {
		return model.Workload{ID: "x", Loc: model.Loc{File: "f.yaml", Line: line}}
	}
	tests := []struct {
		name    string
		collect func(n int, data []byte, doc *model.Document) error
		o       Options
		want    string // "" = no failure
	}{
		{"consistent", func(_ int, _ []byte, doc *model.Document) error {
			doc.Workloads = append(doc.Workloads, workload(2))
			return &collectors.ParseError{Line: 1, Err: errors.New("bad entry")}
		}, Options{}, ""},
		{"second run differs", func(n int, _ []byte, doc *model.Document) error {
			doc.Workloads = append(doc.Workloads, workload(n))
			return nil
		}, Options{}, "second Collect of the same input gave another document"},
		{"error differs", func(n int, _ []byte, _ *model.Document) error {
			return &collectors.ParseError{Line: 1, Err: fmt.Errorf("run %d", n)}
		}, Options{}, "another error"},
		{"not a ParseError", func(int, []byte, *model.Document) error { return errors.New("boom") }, Options{}, "is not a *collectors.ParseError"},
		{"no line", func(int, []byte, *model.Document) error { return &collectors.ParseError{Err: errors.New("x")} }, Options{}, "names line 0"},
		{"no line, format without lines", func(int, []byte, *model.Document) error { return &collectors.ParseError{Err: errors.New("x")} }, Options{NoLines: true}, ""},
		{"fact past the end", func(_ int, _ []byte, doc *model.Document) error {
			doc.Workloads = append(doc.Workloads, workload(4))
			return nil
		}, Options{}, "want a line in 1..3"},
		{"fact without a line", func(_ int, _ []byte, doc *model.Document) error {
			doc.Agents = append(doc.Agents, model.Agent{Env: []model.EnvVar{{Name: "A", Loc: model.Loc{File: "f.yaml"}}}})
			return nil
		}, Options{}, "doc.Agents[0].Env[0].Loc at f.yaml:0"},
		{"writes the caller's bytes", func(_ int, data []byte, _ *model.Document) error {
			data[0] = 'X' // harmless: Collect hands out a copy
			return nil
		}, Options{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte("a\nb\nc")
			calls := 0
			r := &recorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				Collect(r, fake{&calls, tt.collect}, "f.yaml", data, tt.o)
			}()
			<-done
			if tt.want == "" && r.failure != "" || !strings.Contains(r.failure, tt.want) {
				t.Errorf("failure = %q, want %q", r.failure, tt.want)
			}
			if string(data) != "a\nb\nc" {
				t.Errorf("the caller's bytes changed: %q", data)
			}
		})
	}
}
