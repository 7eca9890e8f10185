package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Set is a set of parsed Rego modules: rules (with METADATA), libraries, and
// the tests beside them.
type Set struct {
	Modules map[string]*ast.Module // rules and libraries, keyed by file name
	Tests   map[string]*ast.Module // *_test.rego files
	Rules   []Meta                 // sorted by id
}

func newSet() *Set {
	return &Set{Modules: map[string]*ast.Module{}, Tests: map[string]*ast.Module{}}
}

// LoadBuiltin parses the embedded rules.
func LoadBuiltin() (*Set, error) {
	s := newSet()
	if err := s.addFS(builtin, ".", "rules", true); err != nil {
		return nil, err
	}
	return s, nil
}

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
	if err := s.addFS(os.DirFS(dir), ".", filepath.ToSlash(filepath.Clean(dir)), false); err != nil {
		return err
	}
	if len(s.Modules)+len(s.Tests) == before {
		return fmt.Errorf("read rules directory: no .rego files in %s", dir)
	}
	return nil
}

func (s *Set) addFS(fsys fs.FS, root, prefix string, isBuiltin bool) error {
	var errs []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return nil
		}
		name := path.Join(prefix, p)
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read rule %s: %w", name, err)
		}
		m, err := ast.ParseModuleWithOpts(name, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			errs = append(errs, err.Error())
			return nil
		}
		if strings.HasSuffix(p, "_test.rego") {
			s.Tests[name] = m
			return nil
		}
		s.Modules[name] = m
		if !strings.HasPrefix(m.Package.Path.String(), "data.rules.") {
			return nil // a library
		}
		md, err := metaOf(m, name)
		if err != nil {
			errs = append(errs, err.Error())
			return nil
		}
		md.Builtin = isBuiltin
		for _, o := range s.Rules {
			if o.ID == md.ID {
				errs = append(errs, fmt.Sprintf("%s: rule id %s is already defined in %s", name, md.ID, o.File))
				return nil
			}
		}
		s.Rules = append(s.Rules, md)
		return nil
	})
	if err != nil {
		return fmt.Errorf("load rules: %w", err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("load rules:\n  %s", strings.Join(errs, "\n  "))
	}
	sort.Slice(s.Rules, func(i, j int) bool { return s.Rules[i].ID < s.Rules[j].ID })
	return nil
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
	out := newSet()
	out.Tests = s.Tests
	drop := map[string]bool{}
	for _, r := range s.Rules {
		if ids[r.ID] {
			drop[r.File] = true
			continue
		}
		out.Rules = append(out.Rules, r)
	}
	for k, m := range s.Modules {
		if !drop[k] {
			out.Modules[k] = m
		}
	}
	return out
}

// LoadLibrary returns a set holding only the shared library (data.lib.sa), for
// testing a user's rules on their own.
func LoadLibrary() (*Set, error) {
	s := newSet()
	if err := s.addFS(builtin, "lib", "rules", true); err != nil {
		return nil, err
	}
	return s, nil
}
