package fleet

import (
	"cmp"
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// newEngine is a run's engine: every rule, compiled once, and every area
// compiled before the first target, so that no target's time limit pays
// for it.
func newEngine(ctx context.Context, opt Options) (*audit.Engine, error) {
	eng, err := audit.NewEngine(ctx, opt.RuleDirs, nil, audit.Everything)
	if err != nil {
		return nil, err
	}
	if err := eng.Rules.Warm(ctx, nil); err != nil {
		return nil, err
	}
	return eng, nil
}

// withClient gives the run's github: targets one HTTP client, holding at
// most GitHubInFlight (default 8) requests for all of them, and one
// reading of each organisation's installed apps.
func (opt Options) withClient() Options {
	if opt.GitHub.Client == nil {
		opt.GitHub.Client = github.NewClient(cmp.Or(opt.GitHubInFlight, 8))
	}
	if opt.GitHub.Orgs == nil {
		opt.GitHub.Orgs = github.NewOrgs()
	}
	return opt
}

// each runs work on every target on a pool of n workers (0: one per core),
// until ctx ends: no target starts after that.
func each(ctx context.Context, targets []Target, n int, work func(Target)) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	next := make(chan Target)
	var wg sync.WaitGroup
	for range min(n, max(1, len(targets))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				work(t)
			}
		}()
	}
feed:
	for _, t := range targets {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}

// Audit audits targets as Scan does (one engine, a bounded pool, each
// target's time limit, one HTTP client for the github: ones) and stores
// nothing: each result goes to done as its target finishes, in no order
// (done may be called from several goroutines at once). An organisation,
// and a docker_label entry's containers, are listed first. It returns once every target started is done; a target
// not started because ctx ended is not given to done.
func Audit(ctx context.Context, targets []Target, opt Options, done func(t Target, rep *reports.Report, err error)) error {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	eng, err := newEngine(ctx, opt)
	if err != nil {
		return err
	}
	if targets, err = ResolveGitHub(ctx, targets, opt.GitHub); err != nil {
		return err
	}
	targets = ResolveDocker(ctx, targets, opt.DockerHost)
	opt = opt.withClient()
	each(ctx, targets, opt.Concurrency, func(t Target) {
		rep, _, err := auditOne(ctx, eng, t, opt)
		done(t, rep, err)
	})
	return ctx.Err()
}

// GitHubTargets are the repositories GitHub lists for an organisation
// (forks and archived ones only when asked), one target each, with policy.
func GitHubTargets(ctx context.Context, opt github.Options, org string, forks, archived bool, policy string) ([]Target, error) {
	o := opt
	o.Owner = org
	repos, err := github.ListRepos(ctx, o, forks, archived)
	if err != nil {
		return nil, err
	}
	out := make([]Target, len(repos))
	for i := range repos {
		out[i] = Target{ID: "github:" + repos[i].Owner + "/" + repos[i].Name, GitHub: &repos[i], Policy: policy, listed: true}
	}
	return out, nil
}
