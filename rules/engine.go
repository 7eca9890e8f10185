package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// ErrEval marks a rule that failed to evaluate: the run must exit 2, never
// report a silent pass.
var ErrEval = errors.New("rule evaluation failed")

// Finding is one rule result. Suppression is set by waivers and baselines.
type Finding struct {
	RuleID      string       `json:"rule_id"`
	Title       string       `json:"title"`
	Property    string       `json:"property"`
	Severity    string       `json:"severity"`
	Category    string       `json:"category"`
	Message     string       `json:"message"`
	File        string       `json:"file"`
	Line        int          `json:"line"`
	Fingerprint string       `json:"fingerprint"`
	Remediation string       `json:"remediation"`
	Suppression *Suppression `json:"suppression,omitempty"`
}

// Suppression says why a finding does not count for the gate.
type Suppression struct {
	Kind    string `json:"kind"` // waiver | baseline
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"`
}

// Engine holds the compiled rules and their prepared queries: one per shard
// of rule packages, so the shards evaluate on all cores at once.
type Engine struct {
	queries []rego.PreparedEvalQuery
}

// networkBuiltins are refused: rules judge facts, they never reach out.
var refusedBuiltins = map[string]bool{
	"http.send": true, "net.lookup_ip_addr": true, "opa.runtime": true,
}

// Capabilities are OPA's current capabilities without network built-ins.
func Capabilities() *ast.Capabilities {
	c := ast.CapabilitiesForThisVersion()
	bs := c.Builtins[:0]
	for _, b := range c.Builtins {
		if !refusedBuiltins[b.Name] {
			bs = append(bs, b)
		}
	}
	c.Builtins = bs
	c.AllowNet = []string{}
	return c
}

// Compile compiles the set once and prepares its query once.
func Compile(ctx context.Context, s *Set) (*Engine, error) {
	c := ast.NewCompiler().WithCapabilities(Capabilities())
	if c.Compile(s.Modules); c.Failed() {
		return nil, fmt.Errorf("compile rules: %w", c.Errors)
	}
	// The packages are named, not iterated: `data.rules[p]` with p unbound
	// evaluates every rule of every package (helpers included); with p bound
	// only deny is evaluated. Rules are dealt round-robin into one shard per
	// core; the compiler is shared, each shard is prepared once.
	n := max(1, min(runtime.GOMAXPROCS(0), len(s.Rules)))
	shards := make([][]string, n)
	for i, r := range s.Rules {
		shards[i%n] = append(shards[i%n], strconv.Quote(strings.TrimPrefix(r.Package, "rules.")))
	}
	e := &Engine{}
	for _, pkgs := range shards {
		q, err := rego.New(
			rego.Query(`findings := [[p, f] | some p in [`+strings.Join(pkgs, ", ")+`]; f := data.rules[p].deny[_]]`),
			rego.Compiler(c),
			rego.StrictBuiltinErrors(true),
		).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("prepare rules: %w", err)
		}
		e.queries = append(e.queries, q)
	}
	return e, nil
}

// Eval runs every rule against input (the model as an OPA value), the
// shards in parallel. Any rule error fails the whole evaluation: a rule that
// could not run must never read as "no finding".
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Finding, error) {
	results := make([][]Finding, len(e.queries))
	errs := make([]error, len(e.queries))
	var wg sync.WaitGroup
	for i, q := range e.queries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = evalShard(ctx, q, input)
		}()
	}
	wg.Wait()
	var out []Finding
	for i := range results {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, results[i]...)
	}
	if out == nil {
		out = []Finding{}
	}
	return out, nil
}

func evalShard(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) ([]Finding, error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEval, err)
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("%w: query returned %d results", ErrEval, len(rs))
	}
	raw, err := json.Marshal(rs[0].Bindings["findings"])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEval, err)
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEval, err)
	}
	out := make([]Finding, 0, len(pairs))
	for _, p := range pairs {
		var pkg string
		_ = json.Unmarshal(p[0], &pkg)
		var f Finding
		if err := json.Unmarshal(p[1], &f); err != nil || f.RuleID == "" {
			return nil, fmt.Errorf("%w: rules.%s emitted %s, not a finding: build findings with sa.finding(rego.metadata.chain(), loc, msg)", ErrEval, pkg, truncate(string(p[1]), 120))
		}
		if f.File == "" {
			return nil, fmt.Errorf("%w: rule %s emitted a finding without a file (loc must carry file and line)", ErrEval, f.RuleID)
		}
		if f.Line < 1 {
			f.Line = 1
		}
		out = append(out, f)
	}
	return out, nil
}

// Input converts a JSON-marshalable model into an OPA value once, so the
// conversion is not repeated per rule.
func Input(v any) (ast.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode input: %w", err)
	}
	val, err := ast.ValueFromReader(strings.NewReader(string(b)))
	if err != nil {
		return nil, fmt.Errorf("encode input: %w", err)
	}
	return val, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
