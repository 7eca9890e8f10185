package collectors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// DefaultMaxFileSize bounds what one file may weigh before it is skipped with
// an errors[] entry: configuration files are small, and a 50 MB "config" is
// either junk or an attack on the scanner.
const DefaultMaxFileSize = 8 << 20

// skipDirs are never descended into: dependencies and VCS internals.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true,
	"node_modules": true, "vendor": true, ".venv": true, "venv": true,
	"__pycache__": true, ".tox": true, "bower_components": true,
}

// Options tunes a config scan.
type Options struct {
	// Exclude holds doublestar globs matched against root-relative paths.
	Exclude []string
	// MaxFileSize overrides DefaultMaxFileSize when > 0.
	MaxFileSize int64
	// Workers overrides the number of parallel parsers when > 0.
	Workers int
	// Collectors are the collectors to use, in match order (registry.All()).
	Collectors []Collector
}

type job struct {
	path string // relative, slash-separated
	abs  string
	c    Collector
}

type result struct {
	path string
	doc  model.Document
	err  *model.Error
}

// Scan walks root, hands every recognised file to its collector and returns
// the merged, normalized document and the errors met on the way. It fails
// only when root itself cannot be read.
func Scan(ctx context.Context, root string, opt Options) (*model.Document, []model.Error, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, nil, fmt.Errorf("read target: %w", err)
	}
	cs := opt.Collectors
	maxSize := opt.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	var jobs []job
	var errs []model.Error
	if !st.IsDir() {
		// A single file: match it by its own name.
		name := filepath.Base(root)
		if c := match(cs, name); c != nil {
			jobs = append(jobs, job{path: name, abs: root, c: c})
		}
		root = filepath.Dir(root)
	} else {
		jobs, errs, err = walk(ctx, root, cs, opt.Exclude)
		if err != nil {
			return nil, nil, err
		}
	}
	results := run(ctx, jobs, maxSize, opt.Workers)
	doc := &model.Document{}
	for _, r := range results {
		doc.Merge(&r.doc)
		if r.err != nil {
			errs = append(errs, *r.err)
		}
	}
	for _, c := range cs {
		if l, ok := c.(Linker); ok {
			l.Link(doc)
		}
	}
	doc.GroupAgents()
	doc.Normalize()
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].File < errs[j].File })
	return doc, errs, ctx.Err()
}

func match(cs []Collector, rel string) Collector {
	for _, c := range cs {
		if c.Match(rel) {
			return c
		}
	}
	return nil
}

func walk(ctx context.Context, root string, cs []Collector, exclude []string) ([]job, []model.Error, error) {
	var jobs []job
	var errs []model.Error
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == root {
				return err
			}
			errs = append(errs, model.Error{File: rel, Message: "cannot read: " + Reason(err)})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if excluded(rel, exclude) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if d.Name() == ".git" {
				// The repository's own config holds checkout tokens and
				// credential helpers; the rest of .git is history.
				cfg := rel + "/config"
				if c := match(cs, cfg); c != nil {
					if fi, err := os.Lstat(filepath.Join(p, "config")); err == nil && fi.Mode().IsRegular() {
						jobs = append(jobs, job{path: cfg, abs: filepath.Join(p, "config"), c: c})
					}
				}
				return fs.SkipDir
			}
			if skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		c := match(cs, rel)
		if c == nil {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if msg := symlinkNote(root, p); msg != "" {
				errs = append(errs, model.Error{File: rel, Message: msg})
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		jobs = append(jobs, job{path: rel, abs: p, c: c})
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("walk %s: %w", root, err)
	}
	return jobs, errs, nil
}

// symlinkNote explains why a symlinked config file was not read. Symlinks are
// never followed: one pointing inside the root is read at its real path, one
// pointing out of it could make the scan read the host.
func symlinkNote(root, p string) string {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "symlink not followed: " + Reason(err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	if rel, err := filepath.Rel(realRoot, target); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "symlink not followed: it points outside the scanned root"
	}
	return ""
}

func excluded(rel string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		// "dir/**" style globs also exclude the directory itself.
		if ok, _ := doublestar.Match(strings.TrimSuffix(g, "/**"), rel); ok && strings.HasSuffix(g, "/**") {
			return true
		}
	}
	return false
}

func run(ctx context.Context, jobs []job, maxSize int64, workers int) []result {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = collectOne(ctx, jobs[i], maxSize)
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func collectOne(ctx context.Context, j job, maxSize int64) (r result) {
	r.path = j.path
	defer func() {
		// A collector must never take the scan down with it.
		if p := recover(); p != nil {
			r.doc = model.Document{}
			_, why := SafeReason(fmt.Errorf("%v", p))
			r.err = &model.Error{File: j.path, Message: fmt.Sprintf("%s collector failed on this file: %s", j.c.Name(), why)}
		}
	}()
	fi, err := os.Lstat(j.abs)
	if err != nil {
		r.err = &model.Error{File: j.path, Message: "cannot read: " + Reason(err)}
		return r
	}
	if fi.Size() > maxSize {
		r.err = &model.Error{File: j.path, Message: fmt.Sprintf("skipped: %d bytes is over the %d-byte limit for a configuration file", fi.Size(), maxSize)}
		return r
	}
	data, err := os.ReadFile(j.abs)
	if err != nil {
		r.err = &model.Error{File: j.path, Message: "cannot read: " + Reason(err)}
		return r
	}
	r.doc.Files = append(r.doc.Files, model.File{Path: j.path, Kind: j.c.Name()})
	if err := j.c.Collect(ctx, j.path, data, &r.doc); err != nil {
		line, msg := Message(err)
		r.err = &model.Error{File: j.path, Line: line, Message: j.c.Name() + ": " + msg}
	}
	return r
}

// Reason turns a file error into the short text an errors[] or
// unavailable[] entry shows: "permission denied", "no such file", or the
// system's message without the path the entry already names.
func Reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
