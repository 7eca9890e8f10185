package fleet

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// Options are a fleet run's settings.
type Options struct {
	Concurrency int           // targets audited at once (0: one per core)
	Timeout     time.Duration // per target (0: none)
	RuleDirs    []string      // users' rules, for every target
	GitCache    string        // where git targets are fetched (required when there are any)
	// GitHub is how github: targets are read: the API URL and token (the
	// repository fields are each target's). Its Client, when nil, becomes
	// one shared by every target, holding at most GitHubInFlight requests.
	GitHub         github.Options
	GitHubInFlight int
	// DockerHost is the Docker Engine that docker: and docker_label:
	// targets are read from ("" : DOCKER_HOST, else the default socket).
	DockerHost string
	Version    string
	Now        func() time.Time
	// Run says which run to write: a new one, a named one this process
	// joins (the shards of one run, a rerun), or the newest incomplete one.
	Run RunSpec
	// Shard is this process's part of a sharded run, 1 to Run.Shards.
	Shard int
	// Progress, when set, is called after each target (done of total).
	Progress func(done, total int, t Target, err error)
	// Scan are scan's flags for every target (scan --github ORG); a
	// fleet run leaves them to each target's policy file.
	Scan ScanFlags
}

// ScanFlags are the scan command's flags that apply to each target.
type ScanFlags struct {
	FailOn      string
	Strict      bool
	Exclude     []string
	RuleTimeout time.Duration
	HelpBase    string
}

// Summary is what a process did of a run.
type Summary struct {
	Run     int64
	Targets int // this process's part of the run
	Skipped int // of those, already stored in the run it joined
	Stored  int
	Failed  int // stored with the error that stopped them
	// Incomplete: audited, but strict and something was not read (the
	// gate is incomplete; scan exits 2 on it).
	Incomplete int
	// Complete: this process stored every target of its part.
	Complete bool
	// RunComplete: every target of the run is stored, whichever process
	// stored it.
	RunComplete bool
}

// InShard reports whether target id belongs to shard i (1-based) of n: a
// hash of the id, the same on every machine and in every run, so the
// shards' union is the inventory with no overlap.
func InShard(id string, i, n int) bool {
	if n <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return int(h.Sum64()%uint64(n)) == i-1
}

// Scan audits every target with one engine, compiled once, on a bounded
// pool of workers, and stores each result as it finishes. A target that
// fails (unreadable policy file, a rule error, its time limit, a
// docker_label entry that listed no container) is stored with its error
// and the run goes on. When ctx is cancelled (Ctrl-C,
// SIGTERM) no new target starts, the targets being audited are abandoned
// unstored, and the run is marked incomplete.
func Scan(ctx context.Context, targets []Target, st *Store, opt Options) (Summary, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	now := opt.Now
	sum := Summary{}
	if opt.Run.Shards > 1 && (opt.Shard < 1 || opt.Shard > opt.Run.Shards) {
		return sum, fmt.Errorf("shard %d of %d: give 1 to %d", opt.Shard, opt.Run.Shards, opt.Run.Shards)
	}
	eng, err := newEngine(ctx, opt)
	if err != nil {
		return sum, err
	}
	if targets, err = ResolveGitHub(ctx, targets, opt.GitHub); err != nil {
		return sum, err
	}
	targets = ResolveDocker(ctx, targets, opt.DockerHost)
	opt = opt.withClient()
	ids := make([]string, len(targets))
	for i, t := range targets {
		ids[i] = t.ID
	}
	spec := opt.Run
	spec.Listed = func(id string) bool { return listedGitHub(targets, id) || listedDocker(targets, id) }
	run, stored, list, err := st.OpenRun(ctx, spec, now(), ids)
	if err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	if !slices.Equal(list, ids) {
		// Another process listed an organisation first: audit its list.
		targets = adopt(targets, list)
	}
	sum.Run = run
	var mine []Target
	for _, t := range targets {
		if InShard(t.ID, opt.Shard, opt.Run.Shards) {
			sum.Targets++
			if stored[t.ID] {
				sum.Skipped++
				continue
			}
			mine = append(mine, t)
		}
	}
	targets = mine
	var mu sync.Mutex
	var storeErr error
	each(ctx, targets, opt.Concurrency, func(t Target) {
		start := now()
		rep, rev, err := auditOne(ctx, eng, t, opt)
		if ctx.Err() != nil {
			return // abandoned: the run is incomplete
		}
		// The store is written even when ctx ends meanwhile: a finished
		// target is kept whole.
		serr := st.SaveResult(context.WithoutCancel(ctx), run, t.ID, rev, rep, err, now().Sub(start))
		mu.Lock()
		if serr != nil && storeErr == nil {
			storeErr = fmt.Errorf("store target %s: %w", t.ID, serr)
		}
		if serr == nil {
			sum.Stored++
			switch {
			case err != nil:
				sum.Failed++
			case rep != nil && rep.Gate.Incomplete:
				sum.Incomplete++
			}
		}
		done := sum.Stored
		mu.Unlock()
		if opt.Progress != nil {
			opt.Progress(done, len(targets), t, err)
		}
	})
	sum.Complete = ctx.Err() == nil && storeErr == nil && sum.Stored == len(targets)
	sum.RunComplete, err = st.EndRun(context.WithoutCancel(ctx), run, now())
	if err != nil && storeErr == nil {
		storeErr = fmt.Errorf("store: %w", err)
	}
	if storeErr != nil {
		return sum, storeErr
	}
	if ctx.Err() != nil {
		return sum, fmt.Errorf("fleet run %d interrupted: %d of %d targets stored: %w", run, sum.Stored, len(targets), ctx.Err())
	}
	return sum, nil
}

// listedGitHub: id names a repository an organisation's listing gave (or
// would give: one the run's first process listed and this one did not).
func listedGitHub(ts []Target, id string) bool {
	owner, _, ok := strings.Cut(strings.TrimPrefix(id, "github:"), "/")
	if !ok || !strings.HasPrefix(id, "github:") {
		return false
	}
	for _, t := range ts {
		if t.listed && t.GitHub != nil && t.GitHub.Owner == owner {
			return true
		}
	}
	return false
}

// listedDocker: id names a container a docker_label listing gave (or would
// give), or a docker_label entry that listed none, when this process has
// such an entry: containers start and stop between two shards' listings.
func listedDocker(ts []Target, id string) bool {
	for _, t := range ts {
		if t.dockerLabel != "" && (strings.HasPrefix(id, "docker://") || id == "docker_label:"+t.dockerLabel) {
			return true
		}
	}
	return false
}

// adopt is the run's list as targets: this process's where it has them, a
// repository of a listed organisation otherwise. A container, or a
// docker_label entry, that the run's first process listed and this one did
// not is stored with why (the container has stopped or lost its label
// since, or this process could not read the engine, or reads another).
func adopt(ts []Target, list []string) []Target {
	by := map[string]Target{}
	policy := map[string]string{}
	for _, t := range ts {
		by[t.ID] = t
		if t.listed {
			policy[t.GitHub.Owner] = t.Policy
		}
	}
	out := make([]Target, 0, len(list))
	for _, id := range list {
		if t, ok := by[id]; ok {
			out = append(out, t)
			continue
		}
		if name, ok := strings.CutPrefix(id, "docker://"); ok {
			out = append(out, Target{ID: id, Docker: name, err: fmt.Errorf("%w: container %s was listed when this run started, and is not in this process's listing", ErrNoContainers, name)})
			continue
		}
		if label, ok := strings.CutPrefix(id, "docker_label:"); ok {
			out = append(out, Target{ID: id, dockerLabel: label, err: fmt.Errorf("%w: the process that started this run listed no running container with label %s", ErrNoContainers, label)})
			continue
		}
		owner, name, _ := strings.Cut(strings.TrimPrefix(id, "github:"), "/")
		out = append(out, Target{ID: id, GitHub: &github.RepoInfo{Owner: owner, Name: name}, Policy: policy[owner], listed: true})
	}
	return out
}

// ErrTargetTimeout marks a target that did not finish within its limit.
var ErrTargetTimeout = errors.New("target did not finish within its time limit")

// auditOne audits one target (fetching it first when it is a git
// repository; rev is then the commit audited).
func auditOne(ctx context.Context, eng *audit.Engine, t Target, opt Options) (rep *reports.Report, rev string, err error) {
	// A bug met on one target's input is that target's error, not the
	// end of the run.
	defer func() {
		if r := recover(); r != nil {
			rep, err = nil, fmt.Errorf("internal error auditing %s: %v (please report it)", t.ID, r)
		}
	}()
	if t.err != nil {
		return nil, "", t.err
	}
	tctx, cancel := ctx, context.CancelFunc(func() {})
	if opt.Timeout > 0 {
		tctx, cancel = context.WithTimeout(ctx, opt.Timeout)
	}
	defer cancel()
	timedOut := func(err error) error {
		if err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("%w (%s)", ErrTargetTimeout, opt.Timeout)
		}
		return err
	}
	path := t.Path
	if t.Git != nil {
		if opt.GitCache == "" {
			return nil, "", errors.New("a git target needs a git cache directory")
		}
		path, rev, err = t.Git.Fetch(tctx, opt.GitCache)
		if err != nil {
			return nil, "", timedOut(err)
		}
	}
	cfg, err := audit.ConfigFor(t.Policy, path)
	if err != nil {
		return nil, rev, err
	}
	if cfg == nil {
		cfg = &policies.Config{Version: 1}
	}
	if err := cfg.CheckRuleIDs(eng.Set); err != nil {
		return nil, rev, err
	}
	sf := opt.Scan
	ao := audit.Options{Path: path, Config: cfg, RuleDirs: opt.RuleDirs, Version: opt.Version, Now: opt.Now(),
		FailOn: sf.FailOn, Strict: sf.Strict, Exclude: sf.Exclude, RuleTimeout: sf.RuleTimeout, HelpBase: sf.HelpBase}
	if t.Docker != "" {
		ao.Docker = &docker.Options{Host: opt.DockerHost, Names: []string{t.Docker}}
	}
	if t.GitHub != nil {
		g := opt.GitHub
		g.Owner, g.Repo, g.Known = t.GitHub.Owner, t.GitHub.Name, t.GitHub
		ao.GitHub = &g
	}
	r, err := eng.Run(tctx, ao)
	return r, rev, timedOut(err)
}
