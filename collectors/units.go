package collectors

import (
	"context"
	"fmt"
	"path"
	"sync"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// unitsAhead bounds how many files Each reads ahead of the unit being
// handed out: the next units are read while one is judged, and a fleet's
// facts are never all held at once. A unit larger than this is read alone.
const unitsAhead = 512

// units cuts a fleet tree's jobs into independent units: each outermost
// directory holding a .git entry (a repository checked out side by side
// with others) is one, and the files outside every such directory form one
// more. Units come in the order of their first file in the walk. It
// returns nil when the tree is not cut (no nested repository, or
// everything in one unit): the tree is then one unit, scanned whole.
func units(jobs []job, repos []string) ([][]job, []string) {
	if len(repos) == 0 {
		return nil, nil
	}
	set := make(map[string]bool, len(repos))
	for _, r := range repos {
		set[r] = true
	}
	// unitOf is the outermost repository above file, "" for none.
	unitOf := func(file string) string {
		u := ""
		for d := path.Dir(file); d != "." && d != "/"; d = path.Dir(d) {
			if set[d] {
				u = d
			}
		}
		return u
	}
	at := map[string]int{}
	var out [][]job
	var roots []string
	for _, j := range jobs {
		u := unitOf(j.path)
		i, ok := at[u]
		if !ok {
			i = len(out)
			at[u] = i
			out = append(out, nil)
			roots = append(roots, u)
		}
		out[i] = append(out[i], j)
	}
	if len(out) < 2 {
		return nil, nil
	}
	return out, roots
}

// Units is how many independent units the plan's tree is cut into: 0 when
// it is one (a single repository, a file, a tree without nested
// repositories), to be scanned Whole.
func (p *ScanPlan) Units() int { return len(p.units) }

// UnitRoots are the directories of the plan's units, in order: a nested
// repository's, or "" for the files outside every one.
func (p *ScanPlan) UnitRoots() []string { return p.roots }

// Each reads the plan's units one at a time, each into its own document,
// linked and grouped as Whole links the whole tree, and hands it to fn
// with the errors met reading it (in file order), unit after unit in
// order. The next units are read while fn runs, up to unitsAhead files.
// It returns the walk's errors; fn's error stops the scan and is
// returned. A plan of no units (Units() == 0) is one unit, the whole tree.
// Each uses the plan up: its files are let go as they are read.
func (p *ScanPlan) Each(ctx context.Context, fn func(doc *model.Document, errs []model.Error) error) ([]model.Error, error) {
	if len(p.units) == 0 {
		doc, errs, err := p.Whole(ctx)
		if err != nil {
			return nil, err
		}
		return nil, fn(doc, errs)
	}
	dir, err := OpenDir(p.root)
	if err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	defer dir.Close()
	type read struct {
		doc  *model.Document
		errs []model.Error
		n    int
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ahead, stopped := 0, false
	ch := make(chan read, len(p.units))
	// The jobs are let go as they are read.
	units := p.units
	p.jobs, p.units = nil, nil
	go func() {
		defer close(ch)
		for k, u := range units {
			units[k] = nil
			mu.Lock()
			for !stopped && ahead > 0 && ahead+len(u) > unitsAhead {
				cond.Wait()
			}
			ahead += len(u)
			stop := stopped
			mu.Unlock()
			if stop || ctx.Err() != nil {
				return
			}
			doc, errs, _ := run(ctx, dir, u, p.maxSize, p.opt.Workers, p.opt.Raw, false)
			p.link(doc)
			ch <- read{doc, errs, len(u)}
		}
	}()
	defer func() {
		mu.Lock()
		stopped = true
		cond.Broadcast()
		mu.Unlock()
		for range ch { // let the reader finish the unit it is on
		}
	}()
	for r := range ch {
		if err := fn(r.doc, r.errs); err != nil {
			return nil, err
		}
		mu.Lock()
		ahead -= r.n
		cond.Broadcast()
		mu.Unlock()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.errs, nil
}
