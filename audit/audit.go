// Package audit runs one audit end to end: collect, evaluate the rules,
// fingerprint, apply waivers and baselines, score, and build the report.
// It is the library behind the CLI: NewEngine compiles the rules once, and
// Engine.Run audits one target with its own Options (policy file, waivers,
// baseline), so one engine serves many targets (the fleet does so);
// reports.New(format, Options) renders the report it returns.
package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/deps"
	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/collectors/live"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
	"github.com/sandbox-audit/sandbox-audit/collectors/roles"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// Options is one audit's settings, validated by the CLI.
type Options struct {
	Path   string          // config tree to scan ("" with Live only)
	Docker *docker.Options // running containers to read through the Engine API (nil: none)
	// GitHub reads the repository's settings through GitHub's API (nil:
	// none); without Path, its configuration files are fetched too.
	GitHub        *github.Options
	Live          *live.Options // audit the running environment too (nil: no)
	Deps          *deps.Options // scan the dependency change too (nil: no)
	Config        *policies.Config
	RuleDirs      []string
	FailOn        string // overrides the policy file when set
	Exclude       []string
	Baseline      string
	WriteBaseline string
	Version       string
	Now           time.Time
	HelpBase      string
	// Strict makes the gate incomplete (exit 2) when errors[] is not empty;
	// the policy file's strict: true does too.
	Strict bool
	// RuleTimeout bounds each custom rule's evaluation (0: the policy
	// file's rule_timeout, else rules.DefaultRuleTimeout).
	RuleTimeout time.Duration

	// partFiles overrides partFiles when > 0 (tests judge a tree whole).
	partFiles int
	// whole reads a fleet tree as one document, not unit by unit
	// (tests that take the collected model).
	whole bool
}

// ErrUsage marks a problem with what the user asked for (exit 2).
var ErrUsage = errors.New("usage")

// Engine is the compiled rule set and scoring policy, built once and reused
// for every target.
type Engine struct {
	Set    *rules.Set
	Rules  *rules.Engine
	Scorer *policies.Scorer
}

// NewEngine loads the built-in rules plus the user's, drops the disabled ones
// and compiles everything once.
func NewEngine(ctx context.Context, dirs []string, cfg *policies.Config, sc Scope) (*Engine, error) {
	// The scoring policy compiles beside the rules: it needs nothing from
	// them, and a CLI run waits for both before it can judge (on two cores
	// the collectors of a small repository finish first and leave a core
	// idle for it).
	type scored struct {
		s   *policies.Scorer
		err error
	}
	sch := make(chan scored, 1)
	go func() {
		s, err := policies.NewScorer(ctx)
		sch <- scored{s, err}
	}()
	set, err := rules.LoadBuiltinRules(sc.absent(rules.BuiltinAreas())...)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if err := set.AddDir(d); err != nil {
			return nil, err
		}
	}
	if cfg != nil {
		if err := cfg.CheckRuleIDs(set); err != nil {
			return nil, err
		}
	}
	if !sc.EveryRule {
		set = set.Without(cfg.Disabled(set))
	}
	eng, err := rules.Prepare(ctx, set)
	if err != nil {
		return nil, err
	}
	sr := <-sch
	if sr.err != nil {
		return nil, sr.err
	}
	return &Engine{Set: set, Rules: eng, Scorer: sr.s}, nil
}

// Scope says which inputs an audit has, so the engine compiles only the
// built-in rule areas that can fire on them. The policy rules and users'
// own rules always run.
type Scope struct {
	Config, Live, Deps bool
	// EveryRule keeps the rules disabled by default or by cfg: an engine
	// that serves many targets, each with its own policy file, drops a
	// target's disabled rules from its findings instead (Judge).
	EveryRule bool
}

// Everything compiles every rule (a fleet engine reused across targets).
var Everything = Scope{Config: true, Live: true, Deps: true, EveryRule: true}

// ScopeOf is the scope of one audit's options.
func ScopeOf(opt Options) Scope {
	return Scope{Config: opt.Path != "" || opt.Docker != nil || opt.GitHub != nil, Live: opt.Live != nil, Deps: opt.Deps != nil}
}

func (sc Scope) absent(areas []string) []string {
	var out []string
	for _, a := range areas {
		switch {
		case a == "policy":
		case a == "live":
			if !sc.Live {
				out = append(out, a)
			}
		case a == "deps":
			if !sc.Deps {
				out = append(out, a)
			}
		case !sc.Config:
			out = append(out, a)
		}
	}
	return out
}

// Collected is what the collectors found, before any rule ran.
type Collected struct {
	Doc     *model.Document
	Errors  []model.Error
	Targets []string

	// plan, when set, is a fleet tree not read yet: Judge reads and judges
	// it one unit at a time (judgeUnits), and Doc and Errors are empty.
	plan *collectors.ScanPlan
}

// Audit runs one audit. The rules compile while the collectors read the
// target: on two cores that hides most of the compile from a CLI run. Once
// the collectors are done, the areas the target needs compile first and the
// others not at all.
func Audit(ctx context.Context, opt Options) (*reports.Report, error) {
	type built struct {
		e   *Engine
		err error
	}
	ch := make(chan built, 1)
	collected := make(chan struct{})
	go func() {
		e, err := NewEngine(ctx, opt.RuleDirs, opt.Config, ScopeOf(opt))
		ch <- built{e, err}
		if err == nil {
			_ = e.Rules.Warm(ctx, collected) // an area that fails to compile fails the evaluation that needs it
		}
	}()
	col, cerr := Collect(ctx, opt)
	close(collected)
	b := <-ch
	if b.err != nil {
		return nil, b.err
	}
	if cerr != nil {
		return nil, cerr
	}
	return b.e.Judge(ctx, col, opt)
}

// Run audits opt.Path with the engine (collect, then judge). The report's
// findings are in its Findings (not Stored): a fleet keeps and compares
// them.
func (e *Engine) Run(ctx context.Context, opt Options) (*reports.Report, error) {
	col, err := Collect(ctx, opt)
	if err != nil {
		return nil, err
	}
	rep, err := e.Judge(ctx, col, opt)
	if err == nil && rep.Stored != nil {
		rep.Findings, rep.Stored = rep.AllFindings(), nil
	}
	return rep, err
}

// Collect runs the config collectors on opt.Path and the live collectors
// when asked.
func Collect(ctx context.Context, opt Options) (*Collected, error) {
	cfg := opt.Config
	if cfg == nil {
		cfg = &policies.Config{Version: 1}
	}
	c := &Collected{Doc: &model.Document{}, Targets: []string{}}
	var repo *model.Repository
	fetched := "" // the target's name when its files came from the API
	if opt.GitHub != nil {
		g := *opt.GitHub
		if opt.Path == "" {
			// No checkout: the default branch's configuration files are
			// fetched and audited as one.
			dir, err := os.MkdirTemp("", "sandbox-audit-github-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(dir)
			g.Files = dir
			g.Match = func(p string) bool {
				for _, col := range registry.All() {
					if col.Match(p) {
						return true
					}
				}
				return false
			}
		}
		r, es, err := github.Collect(ctx, g)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		repo = r
		c.Errors = append(c.Errors, es...)
		if opt.Path == "" {
			opt.Path = g.Files
			fetched = "github:" + g.Owner + "/" + g.Repo
		}
	}
	if opt.Path != "" {
		exclude := append(append([]string{}, cfg.Exclude...), opt.Exclude...)
		plan, err := collectors.Plan(ctx, opt.Path, collectors.Options{Exclude: exclude, Collectors: registry.All(), Raw: len(opt.RuleDirs) > 0})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		if fetched != "" {
			c.Targets = append(c.Targets, fetched)
		} else {
			c.Targets = append(c.Targets, filepath.ToSlash(opt.Path))
		}
		if plan.Units() > 0 && unitsAlone(opt) && !opt.whole {
			// A fleet tree: read and judged one repository at a time.
			c.plan = plan
			return c, nil
		}
		d, es, err := plan.Whole(ctx)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		c.Doc, c.Errors = d, append(c.Errors, es...)
	}
	if repo != nil {
		root := opt.Path
		if dir, _, err := collectors.ResolveTarget(root, registry.All()); err == nil {
			root = dir
		}
		repo.CodeOwners = github.CodeOwners(ctx, root, guardrails(c.Doc))
		if names := agentEnvironments(c.Doc); len(names) > 0 {
			envs, es := github.Environments(ctx, *opt.GitHub, names)
			repo.Environments = envs
			c.Errors = append(c.Errors, es...)
		}
		c.Doc.Repository = repo
	}
	if opt.Docker != nil {
		ws, creds, err := docker.Collect(ctx, *opt.Docker)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		if len(ws) == 0 {
			return nil, fmt.Errorf("%w: docker: no running container matches", ErrUsage)
		}
		c.Doc.Workloads = append(c.Doc.Workloads, ws...)
		c.Doc.Credentials = append(c.Doc.Credentials, creds...)
		for _, w := range ws {
			c.Targets = append(c.Targets, "docker://"+w.Name)
		}
	}
	if opt.Deps != nil {
		d, es, err := deps.Scan(ctx, *opt.Deps)
		if err != nil {
			if errors.Is(err, deps.ErrNotGit) || errors.Is(err, deps.ErrUnknownRef) {
				return nil, fmt.Errorf("%w: dependency scan: %v", ErrUsage, err)
			}
			return nil, fmt.Errorf("dependency scan: %w", err)
		}
		c.Doc.Deps = d
		c.Errors = append(c.Errors, es...)
		if opt.Path == "" {
			c.Targets = append(c.Targets, filepath.ToSlash(opt.Deps.Repo))
		}
	}
	if opt.Live != nil {
		lo := *opt.Live
		if len(lo.Targets.ExpectBlocked)+len(lo.Targets.ExpectReachable) == 0 {
			lo.Targets = live.Targets{ExpectReachable: cfg.Probes.ExpectReachable, ExpectBlocked: cfg.Probes.ExpectBlocked}
			if lo.Probe && len(lo.Targets.ExpectBlocked)+len(lo.Targets.ExpectReachable) == 0 {
				lo.Targets = live.DefaultTargets()
			}
		}
		l, creds, lerrs := live.Collect(ctx, lo)
		c.Doc.Live = l
		c.Doc.Credentials = append(c.Doc.Credentials, creds...)
		c.Errors = append(c.Errors, lerrs...)
		c.Targets = append(c.Targets, "live:"+filepath.ToSlash(l.Root))
	}
	// Collectors redact what they keep; this is the net under them: no
	// fact a rule may quote, and no error, holds a secret.
	secrets.RedactFacts(c.Doc)
	for i := range c.Errors {
		c.Errors[i].Message = secrets.Redact(c.Errors[i].Message)
	}
	return c, nil
}

// guardrails are the files of the scan that steer the agent or its
// sandbox: workflows, agent settings, MCP configs, devcontainers. An agent
// that may change them unreviewed changes its own limits.
func guardrails(d *model.Document) []string {
	var out []string
	for _, f := range d.Files {
		switch f.Kind {
		case "workflows", "claude", "codex", "gemini", "cursor", "mcp", "devcontainer":
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

// agentEnvironments are the environments agent jobs deploy to, by the
// name written (an expression names none the scan can read).
func agentEnvironments(d *model.Document) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range d.Workflows {
		for _, j := range w.Jobs {
			if !j.RunsAgent || j.Environment == nil || strings.Contains(j.Environment.Value, "${{") || seen[j.Environment.Value] {
				continue
			}
			seen[j.Environment.Value] = true
			out = append(out, j.Environment.Value)
		}
	}
	sort.Strings(out)
	return out
}

// Judge evaluates the rules and the scoring policy over collected facts.
// It takes c's document: a large one is judged in parts that its facts are
// moved into, each let go once judged, so c is of no use afterwards.
func (e *Engine) Judge(ctx context.Context, c *Collected, opt Options) (*reports.Report, error) {
	cfg := opt.Config
	if cfg == nil {
		cfg = &policies.Config{Version: 1}
	}
	if c.plan != nil {
		return e.judgeUnits(ctx, c, cfg, opt)
	}
	doc, errs, targets := c.Doc, c.Errors, c.Targets
	if len(opt.RuleDirs) == 0 {
		// Raw documents serve users' own rules; the built-in ones judge the
		// model alone, and converting raw documents costs time and memory.
		doc.Raw = nil
	}
	doc.Params = cfg.Params
	if doc.Params == nil {
		doc.Params = map[string]any{}
	}
	if err := e.prepare(doc, cfg, opt); err != nil {
		return nil, err
	}
	// What the score and the report need of the facts is taken before the
	// evaluation moves them into its parts.
	facts, live, unreadList := counts(doc), liveEvidence(doc), unread(doc, errs)
	workloads, skipped := reports.WorkloadsFrom(doc.Workloads), slices.Clone(doc.Skipped)
	findings, failed, err := e.evaluate(ctx, doc, cfg, opt)
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		errs = append(errs, f)
		unreadList = append(unreadList, policies.Unread{Source: f.File, Kind: f.Kind, Error: true})
	}
	set := policies.Settings{FailOn: cfg.FailOn, Require: cfg.Require, MinScore: cfg.MinScore, Strict: cfg.Strict || opt.Strict}
	if opt.FailOn != "" {
		set.FailOn = opt.FailOn
	}
	res, err := e.Scorer.Score(ctx, findings, facts, live, unreadList, set)
	if err != nil {
		return nil, err
	}
	reports.SortFindings(findings)
	if errs == nil {
		errs = []model.Error{}
	}
	markUnread(errs, res.Properties)
	return &reports.Report{
		Tool:         reports.Tool{Name: "sandbox-audit", Version: opt.Version},
		Targets:      targets,
		Verdict:      res.Verdict,
		Properties:   reports.PropertiesFrom(res.Properties),
		Gate:         res.Gate,
		Environment:  doc.Live,
		Repository:   doc.Repository,
		Workloads:    workloads,
		Findings:     findings,
		Errors:       errs,
		Dependencies: doc.Deps,
		Skipped:      skipped,
		Rules:        e.Set.Rules,
		HelpBase:     opt.HelpBase,
	}, nil
}

// prepare adds what the policy file knows to the rule input: expired waivers
// are facts a rule reports at their line.
func (e *Engine) prepare(doc *model.Document, cfg *policies.Config, opt Options) error {
	roles.Assign(doc, cfg.Sandboxes, cfg.Path)
	doc.Policy = policyFacts(cfg, opt)
	doc.Normalize()
	return nil
}

// policyFacts are the policy file's facts.
func policyFacts(cfg *policies.Config, opt Options) *model.Policy {
	p := &model.Policy{File: cfg.Path, ExpiredWaivers: []model.ExpiredWaiver{}}
	day := opt.Now.Format(time.DateOnly)
	for _, w := range cfg.Waivers {
		if w.Expires != "" && w.Expires < day {
			p.ExpiredWaivers = append(p.ExpiredWaivers, model.ExpiredWaiver{
				Rule: w.Rule, Path: w.Path, Fingerprint: w.Fingerprint, Reason: w.Reason, Expires: w.Expires,
				Loc: model.Loc{File: cfg.Path, Line: w.Line},
			})
		}
	}
	return p
}

// partFiles bounds how many files one rule evaluation sees (model.Split).
// A part's input and the evaluation's working set are held beside the
// facts still to judge: parts of 100 files peak 12-16 MiB lower than parts
// of 250 on the 50,000-file corpus, for the same CPU (5,000 files: 3.02 s
// user against 3.05 s); smaller parts cost more than they save.
const partFiles = 100

// evaluate judges doc part by part. A rule that failed to evaluate on a
// part is returned as an errors[] entry (one per rule, naming the files of
// the parts it failed on), beside what every other rule found.
func (e *Engine) evaluate(ctx context.Context, doc *model.Document, cfg *policies.Config, opt Options) ([]rules.Finding, []model.Error, error) {
	// This target's rule modes: a no-op for an engine compiled for it (the
	// disabled rules were left out), the filter for one shared by targets.
	off := cfg.Disabled(e.Set)
	var held findingSet
	var failed ruleFailures
	if err := e.judgeParts(ctx, doc, cfg, opt, off, &held, &failed); err != nil {
		return nil, nil, err
	}
	fs, err := settle(held.findings(), cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	return fs, failed.errors(), nil
}

// judgeParts evaluates the rules on doc, part by part (Document.Parts),
// and adds the findings of the rules not off to held, and the rules that
// failed to evaluate on a part to failed.
func (e *Engine) judgeParts(ctx context.Context, doc *model.Document, cfg *policies.Config, opt Options, off map[string]bool, held *findingSet, failed *ruleFailures) error {
	size := partFiles
	if opt.partFiles > 0 {
		size = opt.partFiles
	}
	parts := doc.Parts(size)
	for i := range parts.Len() {
		part := parts.Part(i)
		in, err := rules.Input(part)
		if err != nil {
			return err
		}
		fs, err := e.Rules.EvalTimeout(ctx, in, ruleTimeout(cfg, opt))
		var pe *rules.PartialError
		if errors.As(err, &pe) {
			failed.add(pe.Failures, part)
		} else if err != nil {
			return err
		}
		for _, f := range fs {
			if !off[f.RuleID] {
				held.add(f)
			}
		}
	}
	return nil
}

// settle fingerprints the findings and applies the waivers and the
// baseline (writing the baseline asked for).
func settle(findings []rules.Finding, cfg *policies.Config, opt Options) ([]rules.Finding, error) {
	policies.Fingerprint(findings)
	policies.ApplyWaivers(findings, cfg.Waivers, opt.Now)
	if opt.Baseline != "" {
		if err := policies.ApplyBaseline(opt.Baseline, findings); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
	}
	if opt.WriteBaseline != "" {
		if err := policies.WriteBaseline(opt.WriteBaseline, findings); err != nil {
			return nil, err
		}
	}
	return findings, nil
}

// ruleTimeout: the flag, else the policy file, else the engine's default.
func ruleTimeout(cfg *policies.Config, opt Options) time.Duration {
	if opt.RuleTimeout > 0 {
		return opt.RuleTimeout
	}
	return cfg.RuleTimeoutOrZero()
}

// counts is how many facts of each kind were collected. Files count only
// when they yielded a fact: a file read whole that holds nothing to judge
// (a YAML file without Kubernetes objects) is no evidence.
func counts(d *model.Document) map[string]int {
	judged := 0
	for _, w := range d.Workloads {
		if w.Judged {
			judged++
		}
	}
	files := 0
	for _, f := range d.Files {
		if f.Facts > 0 {
			files++
		}
	}
	return map[string]int{
		// Only the agent's workloads speak for its sandbox: a scan of a
		// Postgres service alone says nothing about the agent's network.
		"files": files, "workloads": judged, "images": len(d.Images),
		"agents": settingsAgents(d, "review"), "network_agents": settingsAgents(d, "network"), "mcp_servers": len(d.MCPServers), "workflows": len(d.Workflows),
		"git_configs": len(d.GitConfigs), "credentials": len(d.Credentials),
		"repository": repositoryFacts(d),
	}
}

// repositoryFacts is 1 when the repository's review rules were read: they
// are evidence for Reviewed output.
func repositoryFacts(d *model.Document) int {
	if d.Repository != nil && d.Repository.Review != nil {
		return 1
	}
	return 0
}

// settingsAgents counts the agents whose settings files were read and
// speak to the property (Agent.Speaks: for the network, the agent's own
// sandbox; for review, its approval and permission rules). An agent a
// workflow step starts is not counted (its workflow is): its runner's
// egress is not in the file, so it must not make Constrained network pass.
func settingsAgents(d *model.Document, property string) int {
	n := 0
	for _, a := range d.Agents {
		if a.Scope != "workflow" && (len(a.Speaks) == 0 || slices.Contains(a.Speaks, property)) {
			n++
		}
	}
	return n
}

// liveEvidence says which checks of the live audit could read their facts:
// a check that could not is no evidence, so its property stays unknown.
// Review is not judged from inside: the absence of a push credential says
// nothing about who reviews what leaves (a git proxy may push for the agent).
func liveEvidence(d *model.Document) map[string]bool {
	ev := map[string]bool{}
	if d.Live == nil {
		return ev
	}
	unavailable := map[string]bool{}
	for _, u := range d.Live.Unavailable {
		unavailable[u.Check] = true
	}
	ev["isolation"] = d.Live.Isolation.Kind != "" && d.Live.Isolation.Kind != "unknown"
	ev["network"] = !unavailable["network"] && liveNetworkUndecided(d.Live) == ""
	ev["credentials"] = !unavailable["credentials"]
	return ev
}

// liveNetworkUndecided says why what the live audit saw of the network
// decides nothing ("" when it does). Only evidence decides: probes that
// ran, no route to leave by (loopback only), or the host's network
// namespace. A default route alone does not fail the property — egress is
// often filtered upstream, where nothing inside can see it — nor does a
// proxy variable pass it: whether traffic must go through the proxy is not
// visible either.
func liveNetworkUndecided(l *model.Live) string {
	n := l.Network
	if n.Probed || len(n.DefaultRoutes) == 0 || l.Privileges.HostNet {
		return ""
	}
	via := make([]string, 0, len(n.DefaultRoutes))
	for _, r := range n.DefaultRoutes {
		via = append(via, r.Iface+" via "+r.Gateway)
	}
	proxy := "no proxy"
	if len(n.Proxies) > 0 {
		proxy = "a proxy variable (" + n.Proxies[0].Var + ")"
	}
	return "default route " + strings.Join(via, ", ") + " and " + proxy + ", nothing probed: whether egress is filtered outside the sandbox is not visible from inside (run with --probe and expect_blocked targets)"
}

// unread lists for the scoring policy what was not read: every errors[]
// entry, every firewall script a judged workload runs that the scan did
// not read, and every live check that could not run (as liveEvidence, such a
// check is no evidence; the policy also keeps its property from passing).
func unread(d *model.Document, errs []model.Error) []policies.Unread {
	out := unreadErrors(errs)
	var w unreadEgress
	w.add(d.Workloads)
	out = append(append(out, w.scripts...), w.controls...)
	if d.Live != nil {
		if why := liveNetworkUndecided(d.Live); why != "" {
			out = append(out, policies.Unread{Source: "live/network: " + why, Kind: "live:network"})
		}
		for _, u := range d.Live.Unavailable {
			out = append(out, policies.Unread{Source: "live/" + u.Check, Kind: "live:" + u.Check})
		}
	}
	return out
}

// unreadErrors are the errors[] entries, for the scoring policy.
func unreadErrors(errs []model.Error) []policies.Unread {
	out := make([]policies.Unread, 0, len(errs))
	for _, e := range errs {
		out = append(out, policies.Unread{Source: e.File, Kind: e.Kind, Partial: e.Partial, Error: true})
	}
	return out
}

// unreadEgress gathers the egress controls of judged workloads that were
// not read or not evaluated (unread), each once, over one or many calls
// to add.
type unreadEgress struct {
	seen              map[string]bool
	scripts, controls []policies.Unread
}

func (u *unreadEgress) add(ws []model.Workload) {
	if u.seen == nil {
		u.seen = map[string]bool{}
	}
	// A firewall script a judged workload runs that is not in the scan:
	// nothing shows what it does to egress, so network is not known.
	for _, w := range ws {
		if !w.Judged || w.Egress == nil || w.Egress.Script == nil || w.Egress.Script.NotRead != model.NotAmongRead {
			continue
		}
		if ref := w.Egress.Script.Runs; !u.seen[ref] {
			u.seen[ref] = true
			u.scripts = append(u.scripts, policies.Unread{Source: ref, Kind: "firewall"})
		}
	}
	// An egress control of a judged workload that could not be evaluated,
	// with nothing verified beside it (egress-unverified alone reports
	// it): what it lets out is not known, so network is not known either.
	for _, w := range ws {
		if e := w.Egress; w.Judged && e != nil && !e.Restricted && len(e.Unverified) > 0 && e.Script == nil {
			src := fmt.Sprintf("%s:%d (egress control of %s: %s)", e.File, e.Line, w.Name, e.By)
			if !u.seen[src] {
				u.seen[src] = true
				u.controls = append(u.controls, policies.Unread{Source: src, Kind: "firewall"})
			}
		}
	}
}

// markUnread sets each errors[] entry's Properties: those the scoring
// policy left unknown because of its file.
func markUnread(errs []model.Error, props map[string]policies.Property) {
	by := map[string][]string{}
	for _, p := range rules.Properties {
		for _, src := range props[p].Unread {
			by[src] = append(by[src], p)
		}
	}
	for i := range errs {
		if errs[i].Kind != "" {
			errs[i].Properties = by[errs[i].File]
		}
	}
}

// ConfigFor finds the policy file: --config, else .sandbox-audit.yaml at the
// scanned root, else none.
//
// The default file comes from the tree under audit, which a pull request
// controls: it must be a regular file inside that tree — not a symlink (to
// /etc/shadow or anywhere else), FIFO or device — and such a file is an
// error (exit 2), never skipped: the user expects its settings to hold. A
// policy file outside the tree is read only when named with --config (a
// regular file, not a symlink).
func ConfigFor(explicit, root string) (*policies.Config, error) {
	if explicit != "" {
		cfg, err := policies.LoadConfig(explicit)
		if err != nil {
			return nil, err
		}
		cfg.Path = relTo(root, explicit)
		return cfg, nil
	}
	if root == "" {
		return nil, nil
	}
	// The scanned root, as collectors.Scan finds it: a symlinked target
	// followed once, a file or a dot-directory placed in its repository.
	target := root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		target = real
	}
	dir, _, err := collectors.ResolveTarget(target, registry.All())
	if err != nil {
		return nil, nil // the scan names the target it cannot read
	}
	d, err := collectors.OpenDir(dir)
	if err != nil {
		return nil, nil
	}
	defer d.Close()
	name := filepath.Join(dir, policies.ConfigFileName)
	data, err := d.ReadFile(context.Background(), policies.ConfigFileName, policies.MaxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		hint := ""
		if errors.Is(err, syscall.ELOOP) {
			hint = " (a policy file from outside the scanned tree is read only with --config)"
		}
		return nil, fmt.Errorf("%w %s: cannot read: %s%s", policies.ErrConfig, name, collectors.Reason(err), hint)
	}
	cfg, err := policies.ParseConfig(name, data)
	if err != nil {
		return nil, err
	}
	cfg.Path = policies.ConfigFileName
	return cfg, nil
}

func relTo(root, p string) string {
	if root != "" {
		if st, err := os.Stat(root); err == nil && !st.IsDir() {
			root = filepath.Dir(root)
		}
		if r, err := filepath.Rel(root, p); err == nil && !filepath.IsAbs(r) && r != ".." && !startsDotDot(r) {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(filepath.Base(p))
}

func startsDotDot(r string) bool { return len(r) >= 3 && r[:3] == "../" }
