package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestAreasSkipNothing: the engine compiles each rule area apart and skips
// an area on an input that has none of the facts it reads. Its findings
// must be exactly those of every rule compiled together and evaluated on
// every input, for each fixture directory scanned alone (inputs where most
// facts are absent: the skipping cases) and for a generated corpus.
func TestAreasSkipNothing(t *testing.T) {
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	c := ast.NewCompiler().WithCapabilities(rules.Capabilities())
	if c.Compile(eng.Set.Modules); c.Failed() {
		t.Fatal(c.Errors)
	}
	var pkgs []string
	for _, r := range eng.Set.Rules {
		pkgs = append(pkgs, strconv.Quote(strings.TrimPrefix(r.Package, "rules.")))
	}
	ref, err := rego.New(rego.Query(`findings := [f | some p in [`+strings.Join(pkgs, ", ")+`]; f := data.rules[p].deny[_]]`), rego.Compiler(c)).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	targets, _ := filepath.Glob(filepath.Join("..", "fixtures", "*", "*"))
	gen := t.TempDir()
	if err := corpus.Generate(gen, 300, 1); err != nil {
		t.Fatal(err)
	}
	// An empty tree: every area is skipped, so no rule may fire on the
	// absence of all it reads.
	targets = append(targets, gen, t.TempDir())
	checked := 0
	for _, dir := range targets {
		if strings.Contains(dir, string(filepath.Separator)+"live"+string(filepath.Separator)) {
			continue // live facts: collectors/live's golden findings
		}
		opt := Options{Path: dir, Now: time.Now(), whole: true}
		col, err := Collect(ctx, opt)
		if err != nil {
			continue // not a scannable target (a README)
		}
		col.Doc.Normalize()
		cfg := &policies.Config{Version: 1}
		if err := eng.prepare(col.Doc, cfg, opt); err != nil {
			t.Fatal(err)
		}
		for _, part := range col.Doc.Split(partFiles) {
			in, err := rules.Input(part)
			if err != nil {
				t.Fatal(err)
			}
			got, err := eng.Rules.Eval(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := ref.Eval(ctx, rego.EvalParsedInput(in))
			if err != nil {
				t.Fatal(err)
			}
			var want, have []string
			for _, f := range rs[0].Bindings["findings"].([]any) {
				m := f.(map[string]any)
				want = append(want, fmt.Sprint(m["rule_id"], " ", m["file"], ":", m["line"], " ", m["message"]))
			}
			for _, f := range got {
				have = append(have, fmt.Sprint(f.RuleID, " ", f.File, ":", f.Line, " ", f.Message))
			}
			slices.Sort(want)
			slices.Sort(have)
			if !slices.Equal(want, have) {
				t.Errorf("%s: the engine found\n  %s\nevery rule on every input finds\n  %s", dir, strings.Join(have, "\n  "), strings.Join(want, "\n  "))
			}
			checked += len(want)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d findings compared: the fixtures were not read", checked)
	}
	if _, err := os.Stat(filepath.Join("..", "fixtures", "scenarios")); err != nil {
		t.Fatal(err)
	}
}
