// Package deps reports what a change did to a project's dependencies: the
// packages the change between two git revisions (or a revision and the
// work tree) added, removed or changed, which of them are vulnerable, run
// code at install time or come from outside a registry, and manifest-level
// signals (lockfile left stale or removed, ranges widened).
//
// Only the dependency files that changed are read, and of a lockfile present
// on both sides only the entries that differ are cataloged, so the cost
// follows the size of the change. Packages come from syft's lockfile
// catalogers; lines, install scripts and sources from each lockfile's own
// text (syft reports no lines); advisories from trivy's database, opened
// read-only where trivy keeps it. Nothing is downloaded.
package deps

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Options selects what to compare and where the advisories are.
type Options struct {
	// Repo is any directory inside a git work tree; paths in the result are
	// relative to it and only files below it are compared.
	Repo string
	// Base is the revision the change is measured from (required).
	Base string
	// Head is the revision holding the change; "" means the work tree,
	// uncommitted and untracked files included.
	Head string
	// DBDir holds trivy's database: a trivy cache dir (with db/trivy.db) or
	// the db dir itself (with trivy.db). "" means trivy's default cache
	// ($TRIVY_CACHE_DIR, else the user cache dir's trivy/). The database is
	// only ever read: a missing one is reported in Deps.DBStatus.
	DBDir string
	// GitTimeout bounds each git call (0: two minutes). A git blocked for
	// good (a FIFO where it reads a .gitignore) fails the scan, not hangs it.
	GitTimeout time.Duration
}

// side is one side of the comparison: the dependency files read from it.
type side struct {
	name  string // base | head
	rev   string // commit, "" for the work tree
	files map[string][]byte
	index map[string]*lockIndex
	// present lists lockfiles in parent folders of a changed manifest that
	// exist on this side (looked up, not read).
	present map[string]bool
}

// Scan compares the dependency files of two revisions. It returns an error
// (wrapping ErrNotGit or ErrUnknownRef when that is the cause) only when the
// comparison cannot be made at all; unreadable or malformed files and an
// unusable vulnerability database become errors[] entries and the scan goes on.
func Scan(ctx context.Context, opt Options) (*model.Deps, []model.Error, error) {
	r, err := openRepo(ctx, opt.Repo, opt.GitTimeout)
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	d := &model.Deps{Base: model.DepsRef{Ref: opt.Base}, Head: model.DepsRef{Ref: opt.Head, WorkTree: opt.Head == ""}}
	headRef := opt.Head
	if headRef == "" {
		headRef = "HEAD" // the work tree's commit, when there is one
	}
	var ok bool
	d.Base.SHA, d.Head.SHA, d.MergeBase, ok = r.revisions(ctx, opt.Base, headRef)
	if !ok {
		if err := resolveEach(ctx, r, d, opt.Head); err != nil {
			return nil, nil, err
		}
	}
	headRev := ""
	if opt.Head != "" {
		headRev = d.Head.SHA
	}
	changes, err := r.changes(ctx, d.MergeBase, headRev)
	if err != nil {
		return nil, nil, err
	}

	var errs []model.Error
	base := &side{name: "base", rev: d.MergeBase}
	head := &side{name: "head", rev: headRev}
	changed := map[string]bool{}
	for _, p := range changes {
		if _, ok := kindOf(p); ok {
			changed[p] = true
			d.ChangedFiles = append(d.ChangedFiles, p)
		}
	}
	sort.Strings(d.ChangedFiles)
	if len(d.ChangedFiles) > 0 {
		if errs, err = loadSides(ctx, r, d.ChangedFiles, base, head); err != nil {
			return nil, nil, err
		}
		if err := compare(ctx, d, base, head, changed); err != nil {
			return nil, nil, err
		}
	}
	errs = append(errs, matchVulns(d, opt.DBDir)...)
	return d, errs, nil
}

// resolveEach resolves the revisions one call at a time: slower than
// revisions, but it names the one at fault, and a work tree without a
// commit yet (no HEAD) still compares against base.
func resolveEach(ctx context.Context, r *repo, d *model.Deps, head string) error {
	var err error
	if d.Base.SHA, err = r.resolve(ctx, d.Base.Ref); err != nil {
		return err
	}
	d.Head.SHA = ""
	if head != "" {
		if d.Head.SHA, err = r.resolve(ctx, head); err != nil {
			return err
		}
	} else if sha, err := r.resolve(ctx, "HEAD"); err == nil {
		d.Head.SHA = sha
	}
	d.MergeBase = d.Base.SHA
	if d.Head.SHA != "" {
		d.MergeBase = r.mergeBase(ctx, d.Base.SHA, d.Head.SHA)
	}
	return nil
}

// loadSides reads every changed dependency file and its siblings on both
// sides. A file that cannot be read or parsed on either side is left out of
// both, with an errors[] entry: comparing half of it would report every
// package as added or removed.
func loadSides(ctx context.Context, r *repo, changed []string, base, head *side) ([]model.Error, error) {
	want := map[string]bool{}
	for _, p := range changed {
		k, _ := kindOf(p)
		want[p] = true
		for _, s := range siblings(path.Dir(p), k.eco) {
			want[s] = true
		}
	}
	var cands []string
	for _, p := range changed {
		for _, c := range lockCandidates(p) {
			if !want[c] {
				cands = append(cands, c)
			}
		}
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// One cat-file for every committed file of both sides; should it fail
	// (a corrupt object ends it), each file is read on its own and only the
	// bad one becomes an errors[] entry.
	r.prefetch(ctx, []string{base.rev, head.rev}, append(append([]string{}, paths...), cands...))
	bad := map[string]bool{}
	var errs []model.Error
	for _, s := range []*side{base, head} {
		s.files, s.index = map[string][]byte{}, map[string]*lockIndex{}
		ok, err := r.exists(ctx, s.rev, paths)
		if err != nil {
			return nil, err
		}
		if s.present, err = r.exists(ctx, s.rev, cands); err != nil {
			return nil, err
		}
		for _, p := range paths {
			if !ok[p] {
				continue
			}
			data, err := r.read(ctx, s.rev, p)
			if err != nil {
				bad[p] = true
				errs = append(errs, model.Error{File: p, Message: s.label() + "cannot read: " + collectors.Reason(err)})
				continue
			}
			s.files[p] = data
			if k, _ := kindOf(p); !k.catalog {
				continue
			}
			ix, err := indexLockfile(p, data)
			if err != nil {
				bad[p] = true
				line, msg := collectors.Message(err)
				if line > 0 {
					// errors[] has a line field: the message need not say it.
					var pe *collectors.ParseError
					if errors.As(err, &pe) {
						_, msg = collectors.SafeReason(pe.Err)
					}
				}
				errs = append(errs, model.Error{File: p, Line: line, Message: s.label() + msg})
				continue
			}
			s.index[p] = ix
		}
	}
	for p := range bad {
		for _, s := range []*side{base, head} {
			delete(s.files, p)
			delete(s.index, p)
		}
	}
	return errs, nil
}

func (s *side) label() string {
	if s.name == "base" {
		return "at base " + short(s.rev) + ": "
	}
	return ""
}

// compare catalogs both sides, diffs them and derives the manifest signals.
// It fails only when cataloging itself cannot run (no temp space, a
// cancelled context): then nothing about the change is known.
func compare(ctx context.Context, d *model.Deps, base, head *side, changed map[string]bool) error {
	tmp, err := os.MkdirTemp("", "sandbox-audit-deps-")
	if err != nil {
		return fmt.Errorf("catalog dependencies: %w", err)
	}
	defer os.RemoveAll(tmp)
	// A sibling loaded only to read a changed file (the unchanged lockfile
	// beside an edited package.json) is identical on both sides: it cannot
	// differ, so it is neither written nor cataloged.
	same := map[string]bool{}
	for p := range head.index {
		if _, ok := base.index[p]; ok && bytes.Equal(base.files[p], head.files[p]) {
			same[p] = true
		}
	}
	reduced := map[string][2][]byte{}
	for p, hix := range head.index {
		if bix, ok := base.index[p]; ok && !same[p] {
			if b, h, ok := reduceSides(bix, hix); ok {
				reduced[p] = [2][]byte{b, h}
			}
		}
	}
	for i, s := range []*side{base, head} {
		cat := map[string][]byte{}
		for p, data := range s.files {
			if k, _ := kindOf(p); !bySyft(k.eco) {
				continue // read here, not cataloged (own.go)
			}
			if r, ok := reduced[p]; ok {
				cat[p] = r[i]
			} else if !same[p] {
				cat[p] = data
			}
		}
		for p := range same {
			delete(s.index, p)
		}
		if err := writeTree(path.Join(tmp, s.name), cat); err != nil {
			return err
		}
	}
	files := map[string][]string{}
	for _, s := range []*side{base, head} {
		for p := range s.index {
			if k, _ := kindOf(p); bySyft(k.eco) {
				files[s.name] = append(files[s.name], p)
			}
		}
	}
	var found []syftPkg
	if len(files) > 0 {
		if found, err = catalog(ctx, tmp, files, catalogers()); err != nil {
			return err
		}
	}
	recs := map[string][]rec{}
	seen := map[string]bool{} // side, file, folded name
	for _, f := range found {
		s := base
		if f.side == "head" {
			s = head
		}
		ix, ok := s.index[f.file]
		if !ok { // a supporting file (package.json beside its lockfile)
			continue
		}
		recs[f.side] = append(recs[f.side], rec{
			eco: f.eco, name: f.name, version: f.version, purl: f.purl, file: f.file,
			e: ix.find(f.name, f.version),
		})
		seen[f.side+"\x00"+f.file+"\x00"+pep503(f.name)] = true
	}
	for _, s := range []*side{base, head} {
		for file, ix := range s.index {
			for _, o := range ix.own {
				if !seen[s.name+"\x00"+file+"\x00"+pep503(o.name)] {
					recs[s.name] = append(recs[s.name], rec{
						eco: o.eco, name: o.name, version: o.version, purl: purl(o.eco, o.name, o.version), file: file, e: o.e,
					})
				}
			}
		}
	}
	d.Packages = diff(recs["base"], recs["head"])
	manifestChanges(d, base, head, changed)
	return nil
}
