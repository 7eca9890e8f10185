package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

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

// ErrRuleTimeout marks a custom rule that did not finish its evaluation in
// time (--rule-timeout): it is an evaluation failure, exit 2.
var ErrRuleTimeout = fmt.Errorf("%w: time limit", ErrEval)

// DefaultRuleTimeout bounds one custom rule's evaluation of one input. The
// built-in rules evaluate a 250-file part in tens of milliseconds; a user's
// rule that takes seconds is stuck in a comprehension over a huge range or
// a walk it did not mean, and must not hold a CI job until it is killed.
const DefaultRuleTimeout = 5 * time.Second

// Engine holds the compiled rules and their prepared queries: one per shard
// of built-in rule packages, so the shards evaluate on all cores at once,
// and one per custom rule package, so each runs under its own time limit
// and a rule that exceeds it is named.
type Engine struct {
	queries []rego.PreparedEvalQuery
	custom  []customQuery
}

// customQuery is one custom rule package's prepared query.
type customQuery struct {
	q    rego.PreparedEvalQuery
	meta Meta
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
	var builtin, custom []Meta
	for _, r := range s.Rules {
		if r.Builtin {
			builtin = append(builtin, r)
		} else {
			custom = append(custom, r)
		}
	}
	n := max(1, min(runtime.GOMAXPROCS(0), len(builtin)))
	shards := make([][]string, n)
	for i, r := range builtin {
		shards[i%n] = append(shards[i%n], strconv.Quote(strings.TrimPrefix(r.Package, "rules.")))
	}
	e := &Engine{}
	for _, pkgs := range shards {
		q, err := prepare(ctx, c, pkgs)
		if err != nil {
			return nil, err
		}
		e.queries = append(e.queries, q)
	}
	for _, r := range custom {
		q, err := prepare(ctx, c, []string{strconv.Quote(strings.TrimPrefix(r.Package, "rules."))})
		if err != nil {
			return nil, err
		}
		e.custom = append(e.custom, customQuery{q: q, meta: r})
	}
	return e, nil
}

func prepare(ctx context.Context, c *ast.Compiler, pkgs []string) (rego.PreparedEvalQuery, error) {
	q, err := rego.New(
		rego.Query(`findings := [[p, f] | some p in [`+strings.Join(pkgs, ", ")+`]; f := data.rules[p].deny[_]]`),
		rego.Compiler(c),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(ctx)
	if err != nil {
		return q, fmt.Errorf("prepare rules: %w", err)
	}
	return q, nil
}

// Eval runs every rule against input (the model as an OPA value), with
// DefaultRuleTimeout for custom rules.
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Finding, error) {
	return e.EvalTimeout(ctx, input, 0)
}

// EvalTimeout runs every rule against input, the built-in shards and the
// custom rules in parallel; each custom rule package must finish within
// timeout (DefaultRuleTimeout when <= 0), or the evaluation fails with
// ErrRuleTimeout naming it. OPA checks the deadline between evaluation
// steps and inside its iterating built-ins, so a comprehension over a huge
// range stops too. Any rule error fails the whole evaluation: a rule that
// could not run must never read as "no finding".
func (e *Engine) EvalTimeout(ctx context.Context, input ast.Value, timeout time.Duration) ([]Finding, error) {
	if timeout <= 0 {
		timeout = DefaultRuleTimeout
	}
	n := len(e.queries)
	results := make([][]Finding, n+len(e.custom))
	errs := make([]error, n+len(e.custom))
	var wg sync.WaitGroup
	for i, q := range e.queries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = evalShard(ctx, q, input)
		}()
	}
	// Custom rules run at most one per core at a time, so the time limit
	// measures a rule's own work, not its wait for a core.
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, cq := range e.custom {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[n+i], errs[n+i] = evalCustom(ctx, cq, input, timeout)
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

func evalCustom(ctx context.Context, cq customQuery, input ast.Value, timeout time.Duration) ([]Finding, error) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	fs, err := evalShard(tctx, cq.q, input)
	if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w: rule %s (%s, %s) did not finish within %s; raise --rule-timeout or bound the rule's iteration", ErrRuleTimeout, cq.meta.ID, cq.meta.Package, cq.meta.File, timeout)
	}
	return fs, err
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
	return toValue(reflect.ValueOf(v))
}

// inputJSON is Input through JSON text, as OPA reads a document: what
// toValue must equal.
func inputJSON(v any) (ast.Value, error) {
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
