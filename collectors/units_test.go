package collectors

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestUnits: a tree of repositories checked out side by side is cut into
// one unit per outermost repository (a .git directory or file), in walk
// order, and one for the files outside every repository; a single
// repository, a tree inside one, and a tree without nested repositories
// are one unit (Units 0).
func TestUnits(t *testing.T) {
	dir := t.TempDir()
	write := func(p string) {
		t.Helper()
		p = filepath.Join(dir, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte("services: {}\n"), 0o644))
	}
	for _, p := range []string{
		"a/compose.yaml", "a/.git/HEAD",
		"a/sub/compose.yaml", "a/sub/.git", // a submodule: a's
		"a-b/compose.yaml",           // no repository: the files outside
		"b/.git", "b/x/compose.yaml", // a worktree
		"org/c/.git/HEAD", "org/c/compose.yaml",
		"org/compose.yaml",
		"z/compose.yaml",
	} {
		write(p)
	}
	cs := []Collector{yamlNamed("compose.yaml")}
	p, err := Plan(context.Background(), dir, Options{Collectors: cs})
	must(t, err)
	if diff := cmp.Diff([]string{"a", "", "b", "org/c"}, p.UnitRoots()); diff != "" {
		t.Errorf("unit roots (-want +got):\n%s", diff)
	}
	var got [][]string
	for _, u := range p.units {
		var ps []string
		for _, j := range u {
			ps = append(ps, j.path)
		}
		got = append(got, ps)
	}
	want := [][]string{{"a/compose.yaml", "a/sub/compose.yaml"}, {"a-b/compose.yaml", "org/compose.yaml", "z/compose.yaml"}, {"b/x/compose.yaml"}, {"org/c/compose.yaml"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("units (-want +got):\n%s", diff)
	}
	// One repository, a folder inside one, a tree without repositories.
	for _, target := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "b", "x"), filepath.Join(dir, "z")} {
		p, err := Plan(context.Background(), target, Options{Collectors: cs})
		must(t, err)
		if p.Units() != 0 {
			t.Errorf("%s: %d units, want the tree whole", target, p.Units())
		}
	}
	// Read unit by unit: each unit's documents, in order.
	var files []string
	_, err = p.Each(context.Background(), func(doc *model.Document, _ []model.Error) error {
		for _, f := range doc.Files {
			files = append(files, f.Path)
		}
		files = append(files, "|")
		return nil
	})
	must(t, err)
	if diff := cmp.Diff([]string{"a/compose.yaml", "a/sub/compose.yaml", "|", "a-b/compose.yaml", "org/compose.yaml", "z/compose.yaml", "|", "b/x/compose.yaml", "|", "org/c/compose.yaml", "|"}, files); diff != "" {
		t.Errorf("Each (-want +got):\n%s", diff)
	}
}
