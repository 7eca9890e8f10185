package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sort"
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

// Engine holds the rules and their prepared queries: one per built-in rule
// area (workload, agent, workflow, …), compiled on its own with the
// libraries it imports, and one per custom rule package, so each runs under
// its own time limit and a rule that exceeds it is named. An area is
// compiled once, when it is first needed (or by Warm), and evaluated only on
// an input that has one of the facts it reads: a repository of workflows
// pays for neither compiling nor evaluating the container rules.
type Engine struct {
	groups []*group // largest first
	custom []customQuery
}

// group is one built-in rule area.
type group struct {
	area  string
	keys  []string // input keys it reads, one of which must be non-empty; nil: every input
	mods  []*ast.Module
	pkgs  []string
	metas []Meta // the rules of pkgs, in their order
	size  int    // rules in its modules: the order of compiling and evaluating

	once sync.Once
	c    *ast.Compiler // kept to evaluate its rules one by one when the area fails
	q    rego.PreparedEvalQuery
	err  error
}

// RuleFailure is one rule that failed to evaluate on an input.
type RuleFailure struct {
	Rule Meta
	Err  error
}

// PartialError is returned, with the findings of every other rule, when
// some rules failed to evaluate on an input: their findings are missing, so
// the caller must not read the result as complete (the audit lists each
// rule in errors[] and exits 2). It wraps every failure's error (ErrEval,
// ErrRuleTimeout).
type PartialError struct {
	Failures []RuleFailure
}

func (e *PartialError) Error() string {
	msgs := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		msgs[i] = f.Err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e *PartialError) Unwrap() []error {
	out := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		out[i] = f.Err
	}
	return out
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

// Compile prepares the engine and compiles every area at once, in parallel.
func Compile(ctx context.Context, s *Set) (*Engine, error) {
	e, err := Prepare(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := e.Warm(ctx, nil); err != nil {
		return nil, err
	}
	return e, nil
}

// Prepare groups the built-in rules by area without compiling them, and
// compiles the custom rules (a user's mistake is reported before any file
// is read). Each area holds its modules and the library packages they
// import, transitively; a built-in module that reads any other data is a
// bug in the rules and refused.
func Prepare(ctx context.Context, s *Set) (*Engine, error) {
	libs := map[string][]*ast.Module{}
	var names []string
	for n := range s.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	byArea := map[string][]*ast.Module{}
	for _, n := range names {
		m := s.Modules[n]
		if l := libOf(m); l != "" {
			libs[l] = append(libs[l], m)
		}
		if a, ok := s.area[n]; ok && libOf(m) == "" {
			byArea[a] = append(byArea[a], m)
		}
	}
	pkgs, metas := map[string][]string{}, map[string][]Meta{}
	for _, r := range s.Rules {
		if r.Builtin {
			a := s.area[r.File]
			pkgs[a] = append(pkgs[a], quotedPackage(r))
			metas[a] = append(metas[a], r)
		}
	}
	e := &Engine{}
	for a, mods := range byArea {
		g := &group{area: a, pkgs: pkgs[a], metas: metas[a]}
		seen := map[string]bool{}
		rd := readsOf(mods)
		for {
			added := false
			for l := range rd.libs {
				if !seen[l] {
					seen[l], added = true, true
					if len(libs[l]) == 0 {
						return nil, fmt.Errorf("compile rules: area %s imports %s, which is not loaded", a, l)
					}
					mods = append(mods, libs[l]...)
				}
			}
			if !added {
				break
			}
			rd = readsOf(mods)
		}
		if len(rd.other) > 0 {
			return nil, fmt.Errorf("compile rules: built-in rules read only input and libraries: %s", strings.Join(rd.other, "; "))
		}
		g.mods, g.keys = mods, rd.factKeys()
		for _, m := range mods {
			g.size += len(m.Rules)
		}
		e.groups = append(e.groups, g)
	}
	sort.Slice(e.groups, func(i, j int) bool {
		if e.groups[i].size != e.groups[j].size {
			return e.groups[i].size > e.groups[j].size
		}
		return e.groups[i].area < e.groups[j].area
	})
	// Custom rules may read any library or built-in rule package
	// (data.rules.x.deny): they compile with every module, as rules test
	// compiles them.
	var custom []Meta
	for _, r := range s.Rules {
		if !r.Builtin {
			custom = append(custom, r)
		}
	}
	if len(custom) == 0 {
		return e, nil
	}
	c, err := newCompiler(s.Modules)
	if err != nil {
		return nil, err
	}
	// Every module is compiled now: the areas' queries are prepared on
	// this compiler rather than each compiling its modules again.
	for _, g := range e.groups {
		g.once.Do(func() { g.c = c; g.q, g.err = prepare(ctx, c, g.pkgs) })
	}
	for _, r := range custom {
		q, err := prepare(ctx, c, []string{quotedPackage(r)})
		if err != nil {
			return nil, err
		}
		e.custom = append(e.custom, customQuery{q: q, meta: r})
	}
	return e, nil
}

func newCompiler(mods map[string]*ast.Module) (*ast.Compiler, error) {
	c := ast.NewCompiler().WithCapabilities(Capabilities())
	if c.Compile(mods); c.Failed() {
		return nil, fmt.Errorf("compile rules: %w", c.Errors)
	}
	return c, nil
}

// compiled compiles the area once; later callers wait for it and share it.
func (g *group) compiled(ctx context.Context) (rego.PreparedEvalQuery, error) {
	g.once.Do(func() {
		mods := make(map[string]*ast.Module, len(g.mods))
		for _, m := range g.mods {
			mods[m.Package.Location.File] = m
		}
		c, err := newCompiler(mods)
		if err != nil {
			g.err = err
			return
		}
		g.c = c
		g.q, g.err = prepare(ctx, c, g.pkgs)
	})
	return g.q, g.err
}

// quotedPackage is r's package under data.rules, as the query names it.
func quotedPackage(r Meta) string {
	return strconv.Quote(strings.TrimPrefix(r.Package, "rules."))
}

// oneByOne evaluates the area's rules one at a time, after the area's query
// failed on input: the rules that run give their findings, the ones that
// fail are named. When every rule runs alone (the failure was the query's,
// not a rule's), the area's error is returned as it was.
func (g *group) oneByOne(ctx context.Context, input ast.Value, areaErr error) ([]Finding, []RuleFailure, error) {
	var out []Finding
	var failed []RuleFailure
	for i, m := range g.metas {
		q, err := prepare(ctx, g.c, []string{g.pkgs[i]})
		if err == nil {
			var fs []Finding
			if fs, err = evalShard(ctx, q, input); err == nil {
				out = append(out, fs...)
				continue
			}
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		failed = append(failed, RuleFailure{Rule: m, Err: fmt.Errorf("rule %s (%s, %s): %w", m.ID, m.Package, m.File, err)})
	}
	if len(failed) == 0 {
		return nil, nil, areaErr
	}
	return out, failed, nil
}

// Warm compiles the areas not yet compiled, largest first, on every core,
// until stop is closed (a nil stop: all of them). A CLI run warms the engine
// while the collectors read and stops it once it knows which areas the
// target needs; the evaluation compiles any needed area warming left.
func (e *Engine) Warm(ctx context.Context, stop <-chan struct{}) error {
	return e.each(len(e.groups), func(i int) error {
		if stop != nil {
			select {
			case <-stop:
				return nil
			default:
			}
		}
		_, err := e.groups[i].compiled(ctx)
		return err
	})
}

// each runs f(0…n-1) on at most GOMAXPROCS goroutines, in index order, and
// returns the first error.
func (e *Engine) each(n int, f func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func prepare(ctx context.Context, c *ast.Compiler, pkgs []string) (rego.PreparedEvalQuery, error) {
	q, err := rego.New(
		rego.Query(`findings := [[p, f] | some p in [`+strings.Join(pkgs, ", ")+`]; f := data.rules[p].deny[_]]`),
		rego.Compiler(c),
		rego.StrictBuiltinErrors(true),
		rego.GenerateJSON(func(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil }),
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
// timeout (DefaultRuleTimeout when <= 0), or it fails with ErrRuleTimeout
// naming it. OPA checks the deadline between evaluation steps and inside
// its iterating built-ins, so a comprehension over a huge range stops too.
// A rule that fails to evaluate (a conflict on an input its author did not
// foresee, the time limit) is named in a *PartialError returned with the
// findings of every other rule: a rule that could not run must never read
// as "no finding", nor lose what the others found. Any other error (the
// context cancelled, a query that could not be prepared) fails the whole
// evaluation.
func (e *Engine) EvalTimeout(ctx context.Context, input ast.Value, timeout time.Duration) ([]Finding, error) {
	if timeout <= 0 {
		timeout = DefaultRuleTimeout
	}
	var need []*group
	for _, g := range e.groups {
		if g.keys == nil || hasAny(input, g.keys) {
			need = append(need, g)
		}
	}
	n := len(need)
	results := make([][]Finding, n+len(e.custom))
	failed := make([][]RuleFailure, n+len(e.custom))
	var wg sync.WaitGroup
	var berr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		berr = e.each(n, func(i int) error {
			q, err := need[i].compiled(ctx)
			if err != nil {
				return err
			}
			if results[i], err = evalShard(ctx, q, input); err != nil && ctx.Err() == nil && errors.Is(err, ErrEval) {
				results[i], failed[i], err = need[i].oneByOne(ctx, input, err)
			}
			return err
		})
	}()
	// Custom rules run at most one per core at a time, so the time limit
	// measures a rule's own work, not its wait for a core.
	cerr := e.each(len(e.custom), func(i int) error {
		fs, err := evalCustom(ctx, e.custom[i], input, timeout)
		if err != nil && ctx.Err() == nil && errors.Is(err, ErrEval) {
			failed[n+i] = []RuleFailure{{Rule: e.custom[i].meta, Err: err}}
			return nil
		}
		results[n+i] = fs
		return err
	})
	wg.Wait()
	if err := errors.Join(berr, cerr); err != nil {
		return nil, err
	}
	out := []Finding{}
	for i := range results {
		out = append(out, results[i]...)
	}
	var pe PartialError
	for _, f := range failed {
		pe.Failures = append(pe.Failures, f...)
	}
	if len(pe.Failures) > 0 {
		return out, &pe
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
	if err != nil {
		return nil, fmt.Errorf("rule %s (%s, %s): %w", cq.meta.ID, cq.meta.Package, cq.meta.File, err)
	}
	return fs, nil
}

func evalShard(ctx context.Context, q rego.PreparedEvalQuery, input ast.Value) ([]Finding, error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEval, err)
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("%w: query returned %d results", ErrEval, len(rs))
	}
	// The result stays an OPA value (prepare's GenerateJSON): read as it is,
	// not converted to Go values, to JSON and back.
	t, _ := rs[0].Bindings["findings"].(*ast.Term)
	var pairs *ast.Array
	if t != nil {
		pairs, _ = t.Value.(*ast.Array)
	}
	if pairs == nil {
		return nil, fmt.Errorf("%w: query returned %v", ErrEval, rs[0].Bindings["findings"])
	}
	out := make([]Finding, 0, pairs.Len())
	for i := range pairs.Len() {
		p := pairs.Elem(i).Value.(*ast.Array) // [package, finding], built by the query
		pkg, _ := p.Elem(0).Value.(ast.String)
		f, ok := findingOf(p.Elem(1).Value)
		if !ok || f.RuleID == "" {
			return nil, fmt.Errorf("%w: rules.%s emitted %s, not a finding: build findings with sa.finding(rego.metadata.chain(), loc, msg)", ErrEval, string(pkg), truncate(p.Elem(1).String(), 120))
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

// findingOf reads a finding object as encoding/json would into Finding: the
// known keys must have their type (line an integer), others are ignored.
func findingOf(v ast.Value) (Finding, bool) {
	obj, ok := v.(ast.Object)
	if !ok {
		return Finding{}, false
	}
	var f Finding
	strs := map[string]*string{"rule_id": &f.RuleID, "title": &f.Title, "property": &f.Property, "severity": &f.Severity,
		"category": &f.Category, "message": &f.Message, "file": &f.File, "remediation": &f.Remediation}
	ok = true
	obj.Foreach(func(k, x *ast.Term) {
		key, isStr := k.Value.(ast.String)
		if !isStr {
			return
		}
		if _, null := x.Value.(ast.Null); null {
			return
		}
		if dst, known := strs[string(key)]; known {
			s, isStr := x.Value.(ast.String)
			*dst, ok = string(s), ok && isStr
		} else if key == "line" {
			n, isNum := x.Value.(ast.Number)
			line, isInt := n.Int()
			f.Line, ok = line, ok && isNum && isInt
		}
	})
	return f, ok
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
