// Package policies scores the four properties, gives the verdict and decides
// the CI gate (Rego, embedded here), and applies the policy file: exclusions,
// rule modes, parameters, waivers and baselines.
package policies

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

//go:embed *.rego
var regoFS embed.FS

// Property is one property's outcome. Unread lists what the audit was asked
// to read and could not, that leaves this property unknown (errors[] files,
// live/<check> for a live check that could not run): empty when nothing
// was missed.
type Property struct {
	Status   string   `json:"status"`
	Score    int      `json:"score"`
	Findings int      `json:"findings"`
	Unread   []string `json:"unread"`
}

// Gate is the CI decision. Incomplete is set under strict when anything
// could not be audited (errors[] is not empty): the run exits 2, not 1.
type Gate struct {
	Passed     bool     `json:"passed"`
	FailOn     string   `json:"fail_on"`
	Reasons    []string `json:"reasons"`
	Incomplete bool     `json:"incomplete"`
}

// Result is what the scoring policy decides.
type Result struct {
	Properties map[string]Property `json:"properties"`
	Verdict    string              `json:"verdict"`
	Gate       Gate                `json:"gate"`
}

// Settings are the gate's knobs, from flags and the policy file.
type Settings struct {
	FailOn   string         `json:"fail_on"`
	Require  []string       `json:"require"`
	MinScore map[string]int `json:"min_score"`
	Strict   bool           `json:"strict"`
}

// Unread is something the audit was asked to read and could not: an
// errors[] entry (Error), or a live check listed in unavailable[]. Kind
// decides which properties it leaves unknown (policies/unread.rego).
type Unread struct {
	Source  string `json:"source"`
	Kind    string `json:"kind"`
	Partial bool   `json:"partial"`
	Error   bool   `json:"error"`
}

// Input is what the scoring policy judges: findings (after waivers and
// baselines), how many facts of each kind were collected, and settings.
type Input struct {
	Findings []scored        `json:"findings"`
	Counts   map[string]int  `json:"counts"`
	Live     map[string]bool `json:"live"`
	Unread   []Unread        `json:"unread"`
	Settings Settings        `json:"settings"`
}

// scored is what the policy needs of a finding, and how many findings are
// alike in it.
type scored struct {
	RuleID     string `json:"rule_id"`
	Property   string `json:"property"`
	Severity   string `json:"severity"`
	Category   string `json:"category"`
	Suppressed bool   `json:"suppressed"`
	Count      int    `json:"count"`
}

// Scorer holds the compiled scoring policy.
type Scorer struct {
	query rego.PreparedEvalQuery
}

// NewScorer compiles the scoring policy once.
func NewScorer(ctx context.Context) (*Scorer, error) {
	mods := map[string]*ast.Module{}
	err := fs.WalkDir(regoFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.rego") {
			return err
		}
		src, err := fs.ReadFile(regoFS, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts("policies/"+p, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		mods["policies/"+p] = m
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load policies: %w", err)
	}
	c := ast.NewCompiler().WithCapabilities(rules.Capabilities())
	if c.Compile(mods); c.Failed() {
		return nil, fmt.Errorf("compile policies: %w", c.Errors)
	}
	q, err := rego.New(rego.Query("result := data.policies.score.result"), rego.Compiler(c), rego.StrictBuiltinErrors(true)).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare policies: %w", err)
	}
	return &Scorer{query: q}, nil
}

// Score evaluates the policy over findings, the evidence collected (counts,
// live) and what could not be read (unread).
func (s *Scorer) Score(ctx context.Context, findings []rules.Finding, counts map[string]int, live map[string]bool, unread []Unread, set Settings) (Result, error) {
	var t Tally
	for i := range findings {
		t.Add(&findings[i])
	}
	return s.ScoreTally(ctx, &t, counts, live, unread, set)
}

// Tally is what the scoring policy needs of findings: each group of
// findings alike in rule, property, severity, category and suppression,
// with its count. Findings are added one at a time, as they come.
type Tally struct {
	at     map[scored]int
	groups []scored
}

// Add counts f.
func (t *Tally) Add(f *rules.Finding) {
	k := scored{RuleID: f.RuleID, Property: f.Property, Severity: f.Severity, Category: f.Category, Suppressed: f.Suppression != nil}
	if i, ok := t.at[k]; ok {
		t.groups[i].Count++
		return
	}
	if t.at == nil {
		t.at = map[scored]int{}
	}
	t.at[k] = len(t.groups)
	k.Count = 1
	t.groups = append(t.groups, k)
}

// ScoreTally is Score over the findings counted in t.
func (s *Scorer) ScoreTally(ctx context.Context, t *Tally, counts map[string]int, live map[string]bool, unread []Unread, set Settings) (Result, error) {
	in := Input{Counts: counts, Live: live, Unread: unread, Settings: set, Findings: []scored{}}
	if in.Unread == nil {
		in.Unread = []Unread{}
	}
	if in.Settings.FailOn == "" {
		in.Settings.FailOn = "high"
	}
	if in.Settings.Require == nil {
		in.Settings.Require = []string{}
	}
	if in.Settings.MinScore == nil {
		in.Settings.MinScore = map[string]int{}
	}
	if in.Counts == nil {
		in.Counts = map[string]int{}
	}
	if in.Live == nil {
		in.Live = map[string]bool{}
	}
	// The policy sees the findings grouped, with a count: what it scores
	// (rule, property, severity, category, suppression) is the same within
	// a group, and a fleet scan's 19,000 findings as Rego values held
	// 15 MB for the whole evaluation, where ~100 groups hold kilobytes.
	in.Findings = append(in.Findings, t.groups...)
	v, err := rules.Input(in)
	if err != nil {
		return Result{}, err
	}
	rs, err := s.query.Eval(ctx, rego.EvalParsedInput(v))
	if err != nil {
		return Result{}, fmt.Errorf("%w: scoring policy: %v", rules.ErrEval, err)
	}
	if len(rs) != 1 {
		return Result{}, fmt.Errorf("%w: scoring policy returned no result", rules.ErrEval)
	}
	b, _ := json.Marshal(rs[0].Bindings["result"])
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return Result{}, fmt.Errorf("decode policy result: %w", err)
	}
	if r.Gate.Reasons == nil {
		r.Gate.Reasons = []string{}
	}
	for k, p := range r.Properties {
		if p.Unread == nil {
			p.Unread = []string{}
			r.Properties[k] = p
		}
	}
	return r, nil
}
