package collectors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
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
	// Raw keeps the parsed documents beside the model (Document.Raw) for
	// users' own rules; the built-in rules judge the model alone, and on a
	// large tree the raw documents are the larger part of what is held.
	Raw bool
}

type job struct {
	path string // relative to the scanned root, slash-separated
	c    Collector
}

type result struct {
	path string
	doc  model.Document
	err  *model.Error
}

// Scan reads target — a directory tree or one file — hands every recognised
// file to its collector and returns the merged, normalized document and the
// errors met on the way. Where the scanned root lies is ResolveTarget's
// decision: paths in the document are relative to it. It fails only when
// the target itself cannot be read, or is a file no collector reads.
//
// A file given as the target that its collector reads without finding
// anything to judge (a YAML file without Kubernetes objects, an MCP config
// without servers) gets an errors[] entry: the user asked for it to be
// audited, and it was not evidence for anything.
func Scan(ctx context.Context, target string, opt Options) (*model.Document, []model.Error, error) {
	p, err := Plan(ctx, target, opt)
	if err != nil {
		return nil, nil, err
	}
	return p.Whole(ctx)
}

// A ScanPlan is a target resolved and walked, not yet read: Whole reads it
// as one document (Scan), Each one independent unit at a time.
type ScanPlan struct {
	root    string
	isDir   bool
	jobs    []job
	errs    []model.Error // the walk's
	maxSize int64
	opt     Options
	// units are the jobs of each nested repository and of the files
	// outside any (Units), nil when the target is not a fleet tree.
	units [][]job
	roots []string
}

// Plan resolves target and lists the files its collectors claim (Scan's
// first half). It fails only when the target cannot be read.
func Plan(ctx context.Context, target string, opt Options) (*ScanPlan, error) {
	cs := opt.Collectors
	// A target given as a symlink (a checkout linked into place) is
	// audited where it points; nothing below it is followed.
	if real, err := filepath.EvalSymlinks(target); err == nil {
		target = real
	}
	root, rel, isDir, err := resolveTarget(target, cs)
	if err != nil {
		return nil, err
	}
	p := &ScanPlan{root: root, isDir: isDir, maxSize: opt.MaxFileSize, opt: opt}
	if p.maxSize <= 0 {
		p.maxSize = DefaultMaxFileSize
	}
	if !isDir {
		p.jobs = append(p.jobs, job{path: rel, c: match(cs, rel)})
		return p, nil
	}
	var repos []string
	p.jobs, p.errs, repos, err = walk(ctx, root, rel, cs, opt.Exclude)
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(root); err == nil && rel == "" && repoRoot(abs) == "" {
		p.units, p.roots = units(p.jobs, repos)
	}
	return p, nil
}

// Whole reads every file of the plan into one document, links it and
// returns it with the errors met (Scan).
func (p *ScanPlan) Whole(ctx context.Context) (*model.Document, []model.Error, error) {
	jobs, errs := p.jobs, p.errs
	dir, err := OpenDir(p.root)
	if err != nil {
		return nil, nil, fmt.Errorf("read target: %w", err)
	}
	defer dir.Close()
	doc, ferrs, nothing := run(ctx, dir, jobs, p.maxSize, p.opt.Workers, p.opt.Raw, !p.isDir)
	errs = append(errs, ferrs...)
	if nothing && ctx.Err() == nil {
		j := jobs[0]
		errs = append(errs, model.Error{File: j.path, Kind: j.c.Name(), Message: j.c.Name() + ": nothing to audit in this file (read whole, it holds nothing the " + j.c.Name() + " collector judges)"})
	}
	p.link(doc)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].File < errs[j].File })
	return doc, errs, ctx.Err()
}

// link joins the facts of doc's files (the collectors' Linkers) and
// indexes its agent groups.
func (p *ScanPlan) link(doc *model.Document) {
	for _, c := range p.opt.Collectors {
		if l, ok := c.(Linker); ok {
			l.Link(doc)
		}
	}
	doc.GroupAgents()
	doc.Normalize()
}

func match(cs []Collector, rel string) Collector {
	for _, c := range cs {
		if c.Match(rel) {
			return c
		}
	}
	return nil
}

// walk lists the files under root/sub (sub "" is the whole root) that a
// collector claims, and the directories below root that hold a .git entry
// (a directory, or the file of a worktree or submodule); paths are
// relative to root.
func walk(ctx context.Context, root, sub string, cs []Collector, exclude []string) ([]job, []model.Error, []string, error) {
	var jobs []job
	var errs []model.Error
	var repos []string
	var links []string // symlinks met, relative to root
	start := root
	if sub != "" {
		start = filepath.Join(root, filepath.FromSlash(sub))
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == start {
				return err
			}
			e := model.Error{File: rel, Message: "cannot read: " + Reason(err)}
			if d != nil && d.IsDir() {
				// What the directory held is not known: any format.
				e.Kind = model.KindUnknown
				errs = append(errs, e)
				return fs.SkipDir
			}
			if c := match(cs, rel); c != nil {
				e.Kind = c.Name()
			}
			errs = append(errs, e)
			return nil
		}
		if p != start && excluded(rel, exclude) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == ".git" && p != root {
			repos = append(repos, path.Dir(rel))
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
						jobs = append(jobs, job{path: cfg, c: c})
					}
				}
				return fs.SkipDir
			}
			if p != start && skipDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			links = append(links, rel)
			return nil
		}
		c := match(cs, rel)
		if c == nil {
			return nil
		}
		if !d.Type().IsRegular() {
			// A FIFO, socket or device under a configuration name is never
			// opened (it could block the scan or stream without end), and
			// what it stands for is not audited.
			errs = append(errs, model.Error{File: rel, Kind: c.Name(), Message: "not read: " + irregular(d.Type())})
			return nil
		}
		jobs = append(jobs, job{path: rel, c: c})
		return nil
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("walk %s: %w", start, err)
	}
	errs = append(errs, checkLinks(ctx, root, links, jobs, cs)...)
	return jobs, errs, repos, nil
}

// irregular names what a file that is not regular is.
func irregular(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory, not a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	}
	return "not a regular file"
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

// mergeFiles is how many files' documents are merged into one as soon as
// they are all read: a large tree's per-file documents (each a Document
// header of some 500 bytes beside its facts) never all wait for the end.
const mergeFiles = 512

// run reads the jobs on workers and returns their documents merged in job
// order, the errors met, in job order, and whether the only job, when one
// is asked for (a file target), read whole yielded nothing to judge. The
// documents are merged a block of mergeFiles at a time as each block is
// done, and the blocks once at the end, one list at a time (MergeAll).
func run(ctx context.Context, dir *Dir, jobs []job, maxSize int64, workers int, raw, single bool) (*model.Document, []model.Error, bool) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*result, len(jobs))
	blocks := (len(jobs) + mergeFiles - 1) / mergeFiles
	left := make([]atomic.Int32, blocks)
	ready := make([]chan struct{}, blocks)
	for b := range blocks {
		left[b].Store(int32(min(mergeFiles, len(jobs)-b*mergeFiles)))
		ready[b] = make(chan struct{})
	}
	done := func(i int) {
		if b := i / mergeFiles; left[b].Add(-1) == 0 {
			close(ready[b])
		}
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := collectOne(ctx, dir, jobs[i], maxSize)
				if !raw {
					r.doc.Raw = nil
				}
				results[i] = &r
				done(i)
			}
		}()
	}
	go func() {
		i := 0
		for ; i < len(jobs) && ctx.Err() == nil; i++ {
			next <- i
		}
		close(next)
		for ; i < len(jobs); i++ {
			done(i) // never read: the scan was cancelled
		}
	}()
	var errs []model.Error
	nothing := false
	merged := make([]*model.Document, 0, blocks)
	for b := range blocks {
		<-ready[b]
		rs := results[b*mergeFiles : min((b+1)*mergeFiles, len(jobs))]
		parts := make([]*model.Document, 0, len(rs))
		for k, r := range rs {
			if r == nil {
				continue
			}
			if r.err != nil {
				errs = append(errs, *r.err)
			}
			parts = append(parts, &r.doc)
			rs[k] = nil
		}
		if single && len(jobs) == 1 && len(parts) == 1 {
			nothing = errs == nil && parts[0].FactCount() == 0
		}
		merged = append(merged, model.MergeAll(parts))
	}
	wg.Wait()
	return model.MergeAll(merged), errs, nothing
}

func collectOne(ctx context.Context, dir *Dir, j job, maxSize int64) (r result) {
	r.path = j.path
	// Runs last, after a recovered panic too: whatever went wrong, the
	// entry names the format that claimed the file.
	defer r.finish(j.c.Name())
	defer func() {
		// A collector must never take the scan down with it.
		if p := recover(); p != nil {
			r.doc = model.Document{}
			_, why := SafeReason(fmt.Errorf("%v", p))
			r.err = &model.Error{File: j.path, Message: fmt.Sprintf("%s collector failed on this file: %s", j.c.Name(), why)}
		}
	}()
	// Read once, by the descriptor it checks: a file swapped for a
	// symlink or a FIFO since the walk listed it is refused, not followed.
	sn, sniffed := j.c.(Sniffer)
	sniffed = sniffed && sn.Sniffs(j.path)
	data, err := dir.ReadFile(ctx, j.path, maxSize)
	if err != nil {
		var big *TooLargeError
		if errors.As(err, &big) && sniffed {
			return r // a program, not a script: not a configuration file
		}
		if errors.As(err, &big) {
			r.err = &model.Error{File: j.path, Message: "skipped: " + big.Error() + " for a configuration file"}
		} else {
			r.err = &model.Error{File: j.path, Message: "cannot read: " + Reason(err)}
		}
		return r
	}
	if sniffed && !sn.Sniff(data) {
		return r
	}
	r.doc.Files = append(r.doc.Files, model.File{Path: j.path, Kind: j.c.Name()})
	if err := j.c.Collect(ctx, j.path, data, &r.doc); err != nil {
		line, msg := Message(err)
		r.err = &model.Error{File: j.path, Line: line, Message: j.c.Name() + ": " + msg}
		rawSecrets(j.path, j.c.Name(), data, &r.doc)
	}
	return r
}

// rawSecrets scans the text of a file its collector could not parse for
// literal credentials: a key in a config with a stray comma is still in
// the repository the agent reads (and leaked), so it is reported, not lost
// with the parse. Lines where the collector already found one (facts read
// before it failed) are skipped.
func rawSecrets(path, kind string, data []byte, doc *model.Document) {
	text := string(data)
	ms := secrets.Scan(text)
	if len(ms) == 0 {
		return
	}
	had := map[int]bool{}
	for _, c := range doc.Credentials {
		if c.File == path {
			had[c.Line] = true
		}
	}
	for _, m := range ms {
		line := 1 + strings.Count(text[:m.Start], "\n")
		if had[line] {
			continue
		}
		had[line] = true
		doc.Credentials = append(doc.Credentials, model.Credential{
			SecretRef: m.SecretRef, Where: "file", Context: kind + " file that could not be parsed",
			// The file is in the tree the agent works on.
			ReadableByAgent: true, Loc: model.Loc{File: path, Line: line},
		})
	}
}

// finish records what the file yielded. A file that failed is listed in
// doc.files only when it yielded facts before failing (a partial read), and
// its errors[] entry says which format claimed it and whether it was partial.
func (r *result) finish(kind string) {
	n := r.doc.FactCount()
	for i := range r.doc.Files {
		r.doc.Files[i].Facts = n
	}
	if r.err == nil {
		return
	}
	if n == 0 {
		r.doc.Files = nil
	}
	if r.err.Kind == "" {
		r.err.Kind = kind
	}
	r.err.Partial = n > 0
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
	case errors.Is(err, syscall.ELOOP):
		return "symlink not followed"
	case errors.Is(err, syscall.EXDEV):
		return "the path leaves the folder it is read from"
	case errors.Is(err, syscall.ENXIO):
		return irregular(fs.ModeSocket)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
