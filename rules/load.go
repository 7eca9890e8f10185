package rules

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// Set is a set of parsed Rego modules: rules (with METADATA), libraries, and
// the tests beside them.
type Set struct {
	Modules map[string]*ast.Module // rules and libraries, keyed by file name
	Tests   map[string]*ast.Module // *_test.rego files
	Rules   []Meta                 // sorted by id
	// area is the built-in area of each embedded module ("workload",
	// "agent", …; "lib" for the shared libraries). A user's modules have
	// none.
	area map[string]string
}

func newSet() *Set {
	return &Set{Modules: map[string]*ast.Module{}, Tests: map[string]*ast.Module{}, area: map[string]string{}}
}

// LoadBuiltin parses the embedded rules and their tests.
func LoadBuiltin() (*Set, error) {
	return loadBuiltin(true)
}

// LoadBuiltinRules parses the embedded rules without their tests: what a
// scan needs. The built-in areas named in skip (rules/<area>/: rules and
// libraries) are not even read: a scan leaves out the areas whose input it
// does not have — live rules without --live, dependency rules without a
// dependency scan — because parsing their METADATA and compiling them is
// most of a small run's start-up, and they could not fire.
func LoadBuiltinRules(skip ...string) (*Set, error) {
	return loadBuiltin(false, skip...)
}

func loadBuiltin(withTests bool, skip ...string) (*Set, error) {
	s := newSet()
	if err := s.addFS(builtin, nil, ".", "rules", true, withTests, skip...); err != nil {
		return nil, err
	}
	return s, nil
}

// BuiltinAreas lists the built-in rule areas (the directories beside lib/).
func BuiltinAreas() []string {
	ents, err := fs.ReadDir(builtin, ".")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != "lib" {
			out = append(out, e.Name())
		}
	}
	return out
}

// maxRuleSize bounds one .rego file of a user's rule directory.
const maxRuleSize = 4 << 20

// AddDir adds a user's rule directory (its *.rego files, recursively). Rules
// there follow the same METADATA contract as the built-in ones; they may
// import data.lib.sa.
func (s *Set) AddDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("read rules directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("read rules directory: %s is not a directory", dir)
	}
	before := len(s.Modules) + len(s.Tests)
	// The folder may be in the tree under audit (a pull request's): its
	// files are read as audited files are, never through a symlink, only
	// regular files, capped, with a deadline.
	d, err := collectors.OpenDir(dir)
	if err != nil {
		return fmt.Errorf("read rules directory: %w", err)
	}
	defer d.Close()
	read := func(p string) ([]byte, error) { return d.ReadFile(context.Background(), p, maxRuleSize) }
	if err := s.addFS(os.DirFS(dir), read, ".", filepath.ToSlash(filepath.Clean(dir)), false, true); err != nil {
		return err
	}
	if len(s.Modules)+len(s.Tests) == before {
		return fmt.Errorf("read rules directory: no .rego files in %s", dir)
	}
	return nil
}

type parsed struct {
	name string
	test bool
	mod  *ast.Module
	err  error
}

// addFS parses every .rego under root but those in the top-level
// directories named in skip. Parsing is most of a CLI run's start-up cost, so
// files are parsed in parallel, and tests only when asked for.
func (s *Set) addFS(fsys fs.FS, read func(p string) ([]byte, error), root, prefix string, isBuiltin, withTests bool, skip ...string) error {
	if read == nil {
		read = func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }
	}
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, p) {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".rego") || (!withTests && strings.HasSuffix(p, "_test.rego")) {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("load rules: %w", err)
	}
	out := make([]parsed, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = parseOne(read, p, path.Join(prefix, p))
		}()
	}
	wg.Wait()
	var errs []string
	for _, r := range out {
		if r.err != nil {
			errs = append(errs, r.err.Error())
			continue
		}
		if r.test {
			s.Tests[r.name] = r.mod
			continue
		}
		s.Modules[r.name] = r.mod
		if isBuiltin {
			s.area[r.name] = strings.SplitN(strings.TrimPrefix(r.name, prefix+"/"), "/", 2)[0]
		}
		if !strings.HasPrefix(r.mod.Package.Path.String(), "data.rules.") {
			continue // a library
		}
		md, err := metaOf(r.mod, r.name)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		md.Builtin = isBuiltin
		if o, dup := s.Rule(md.ID); dup {
			errs = append(errs, fmt.Sprintf("%s: rule id %s is already defined in %s", r.name, md.ID, o.File))
			continue
		}
		s.Rules = append(s.Rules, md)
	}
	if len(errs) > 0 {
		return fmt.Errorf("load rules:\n  %s", strings.Join(errs, "\n  "))
	}
	sort.Slice(s.Rules, func(i, j int) bool { return s.Rules[i].ID < s.Rules[j].ID })
	return nil
}

func parseOne(read func(p string) ([]byte, error), p, name string) parsed {
	src, err := read(p)
	if err != nil {
		return parsed{err: fmt.Errorf("read rule %s: %s", name, collectors.Reason(err))}
	}
	m, err := ast.ParseModuleWithOpts(name, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
	if err != nil {
		return parsed{err: err}
	}
	return parsed{name: name, test: strings.HasSuffix(p, "_test.rego"), mod: m}
}

// Rule returns the METADATA of the rule with this id.
func (s *Set) Rule(id string) (Meta, bool) {
	for _, r := range s.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Meta{}, false
}

// Without returns a copy of the set without the given rule ids (disabled by
// the policy file).
func (s *Set) Without(ids map[string]bool) *Set {
	if len(ids) == 0 {
		return s
	}
	drop := map[string]bool{}
	for _, r := range s.Rules {
		if ids[r.ID] {
			drop[r.File] = true
		}
	}
	return s.filter(func(file string) bool { return !drop[file] })
}

func (s *Set) filter(keep func(file string) bool) *Set {
	out := newSet()
	out.Tests = s.Tests
	for _, r := range s.Rules {
		if keep(r.File) {
			out.Rules = append(out.Rules, r)
		}
	}
	for k, m := range s.Modules {
		if keep(k) {
			out.Modules[k] = m
			if a, ok := s.area[k]; ok {
				out.area[k] = a
			}
		}
	}
	return out
}

// LoadLibrary returns a set holding only the shared library (data.lib.sa), for
// testing a user's rules on their own.
func LoadLibrary() (*Set, error) {
	s := newSet()
	if err := s.addFS(builtin, nil, "lib", "rules", true, false); err != nil {
		return nil, err
	}
	return s, nil
}
