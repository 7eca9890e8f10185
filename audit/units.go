package audit

import (
	"context"
	"fmt"
	"sort"

	"github.com/sandbox-audit/sandbox-audit/collectors/roles"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// unitsAlone says whether a fleet tree of opt may be read and judged one
// repository at a time: when the config tree is the only input. Live
// facts, a running container's, GitHub's settings and the dependency
// change are joined with the whole tree.
func unitsAlone(opt Options) bool {
	return opt.GitHub == nil && opt.Docker == nil && opt.Live == nil && opt.Deps == nil
}

// judgeUnits audits a fleet tree (repositories checked out side by side,
// collectors.ScanPlan.Units) one repository at a time: each is read,
// linked, its roles assigned and its facts judged on their own, and
// dropped before the next is done with; only its findings (held compact)
// and what the report and the score need of its facts are kept. The whole
// tree's facts are never held at once: a 50,000-file fleet's model is some
// 100 MB.
//
// A repository's roles are decided within it: one repository's agent
// devcontainer does not leave another's unknown containers unjudged, and
// no link (a NetworkPolicy, a compose file, a Dockerfile) is made across
// repositories. Everything else is as Judge does it on the whole tree: the
// parts judged hold whole repositories of about partFiles files, and the
// findings, errors, workloads and skipped objects come out in the same
// order.
func (e *Engine) judgeUnits(ctx context.Context, c *Collected, cfg *policies.Config, opt Options) (*reports.Report, error) {
	params := cfg.Params
	if params == nil {
		params = map[string]any{}
	}
	off := cfg.Disabled(e.Set)
	var base *policies.BaselineSet
	if opt.Baseline != "" {
		b, err := policies.LoadBaseline(opt.Baseline)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUsage, err)
		}
		base = b
	}
	zw := &deflater{} // the store's and the workload log's
	var (
		store     = &findingStore{zw: zw}
		tally     policies.Tally
		errs      []model.Error
		facts     = counts(&model.Document{})
		workloads = workloadLog{zw: zw}
		skipped   skippedGroups
		egress    unreadEgress
		batch     []*model.Document
		files     int
		policy    = policyFacts(cfg, opt)
		failed    ruleFailures
	)
	size := partFiles
	if opt.partFiles > 0 {
		size = opt.partFiles
	}
	// judge evaluates the units read so far as one document: a part of
	// about size files, as Judge cuts a whole tree. The first part carries
	// the policy facts. Its findings are settled as settle does a whole
	// scan's: a fingerprint numbers identical findings of one file, and a
	// file's findings are all in one part.
	judge := func() error {
		if len(batch) == 0 {
			return nil
		}
		doc := model.MergeAll(batch)
		batch, files = batch[:0], 0
		doc.Params, doc.Policy, policy = params, policy, nil
		doc.GroupAgents()
		doc.Normalize()
		var held findingSet
		if err := e.judgeParts(ctx, doc, cfg, opt, off, &held, &failed); err != nil {
			return err
		}
		fs := held.findings()
		policies.Fingerprint(fs)
		policies.ApplyWaivers(fs, cfg.Waivers, opt.Now)
		if base != nil {
			base.Apply(fs)
		}
		for i := range fs {
			tally.Add(&fs[i])
		}
		store.add(fs)
		return nil
	}
	walkErrs, err := c.plan.Each(ctx, func(u *model.Document, es []model.Error) error {
		if len(opt.RuleDirs) == 0 {
			u.Raw = nil
		}
		// As Collect and Judge do it for a whole tree.
		secrets.RedactFacts(u)
		for i := range es {
			es[i].Message = secrets.Redact(es[i].Message)
		}
		errs = append(errs, es...)
		roles.Assign(u, cfg.Sandboxes, cfg.Path)
		for k, n := range counts(u) {
			facts[k] += n
		}
		workloads.add(reports.WorkloadsFrom(u.Workloads))
		skipped.add(u.Skipped)
		egress.add(u.Workloads)
		batch = append(batch, u)
		if files += len(u.Files); files >= size {
			return judge()
		}
		return nil
	})
	if err == nil {
		err = judge()
	}
	if err != nil {
		return nil, err
	}
	// The errors of the walk come first, then the files', each in file
	// order: collectors.Scan's order.
	errs = append(append([]model.Error{}, walkErrs...), errs...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].File < errs[j].File })
	// A rule that failed to evaluate, as Judge lists it: after the files.
	errs = append(errs, failed.errors()...)
	unreadList := append(append(unreadErrors(errs), egress.scripts...), egress.controls...)
	store.finish()
	if opt.WriteBaseline != "" {
		es := make([]policies.BaselineEntry, 0, store.Len())
		_ = store.Each(func(f *rules.Finding) error {
			es = append(es, policies.BaselineEntry{Fingerprint: f.Fingerprint, RuleID: f.RuleID, File: f.File})
			return nil
		})
		if err := policies.WriteBaselineEntries(opt.WriteBaseline, es); err != nil {
			return nil, err
		}
	}
	set := policies.Settings{FailOn: cfg.FailOn, Require: cfg.Require, MinScore: cfg.MinScore, Strict: cfg.Strict || opt.Strict}
	if opt.FailOn != "" {
		set.FailOn = opt.FailOn
	}
	res, err := e.Scorer.ScoreTally(ctx, &tally, facts, map[string]bool{}, unreadList, set)
	if err != nil {
		return nil, err
	}
	ws, err := workloads.all()
	if err != nil {
		return nil, err
	}
	reports.SortWorkloads(ws)
	markUnread(errs, res.Properties)
	return &reports.Report{
		Tool:       reports.Tool{Name: "sandbox-audit", Version: opt.Version},
		Targets:    c.Targets,
		Verdict:    res.Verdict,
		Properties: reports.PropertiesFrom(res.Properties),
		Gate:       res.Gate,
		Workloads:  ws,
		Findings:   []rules.Finding{},
		Stored:     store,
		Errors:     errs,
		Skipped:    skipped.list(),
		Rules:      e.Set.Rules,
		HelpBase:   opt.HelpBase,
	}, nil
}

// skippedGroups merges the units' Skipped groups as the Kubernetes
// collector's Link merges a whole tree's: one entry per apiVersion, kind
// and reason, at its first occurrence, with the count of all.
type skippedGroups struct {
	at  map[[3]string]int
	out []model.SkippedObject
}

func (g *skippedGroups) add(ss []model.SkippedObject) {
	if g.at == nil {
		g.at = map[[3]string]int{}
	}
	for _, s := range ss {
		k := [3]string{s.APIVersion, s.Kind, s.Reason}
		if i, ok := g.at[k]; ok {
			g.out[i].Count += s.Count
			continue
		}
		g.at[k] = len(g.out)
		g.out = append(g.out, s)
	}
}

func (g *skippedGroups) list() []model.SkippedObject {
	if g.out == nil {
		return []model.SkippedObject{}
	}
	return g.out
}
