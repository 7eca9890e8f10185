package deps

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	fixtures "github.com/aquasecurity/bolt-fixtures"
	"github.com/aquasecurity/trivy-db/pkg/db"
	"github.com/aquasecurity/trivy-db/pkg/dbtest"
)

// fixtureDir is the shared fixture tree (lockfile pairs, advisory YAML).
var fixtureDir = filepath.Join("..", "..", "fixtures", "deps")

// gitRepo is a real git repository in a temp dir.
type gitRepo struct {
	t   testing.TB
	dir string
}

func newGitRepo(t testing.TB) *gitRepo {
	t.Helper()
	g := &gitRepo{t: t, dir: t.TempDir()}
	g.run("init", "-q", "-b", "main")
	return g
}

func (g *gitRepo) run(args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", g.dir}, args...)...)
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// write puts files (slash path -> content) in the work tree.
func (g *gitRepo) write(files map[string]string) {
	g.t.Helper()
	for p, c := range files {
		abs := filepath.Join(g.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			g.t.Fatal(err)
		}
	}
}

// copyDir copies a fixture folder into the work tree under prefix.
func (g *gitRepo) copyDir(src, prefix string) {
	g.t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(filepath.Join(prefix, rel))] = string(data)
		return err
	})
	if err != nil {
		g.t.Fatal(err)
	}
	g.write(files)
}

// commit stages everything and commits, returning the SHA.
func (g *gitRepo) commit(msg string) string {
	g.t.Helper()
	g.run("add", "-A")
	g.run("commit", "-q", "--allow-empty", "-m", msg)
	return g.run("rev-parse", "HEAD")
}

// remove deletes a path from the work tree.
func (g *gitRepo) remove(p string) {
	g.t.Helper()
	if err := os.RemoveAll(filepath.Join(g.dir, filepath.FromSlash(p))); err != nil {
		g.t.Fatal(err)
	}
}

// fixtureDB builds a real trivy bolt database from the YAML advisory
// fixtures with trivy-db's own loader, closes trivy-db's handle and
// returns its directory (holding trivy.db and metadata.json).
func fixtureDB(t testing.TB) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtureDir, "trivy-db", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("advisory fixtures: %v", err)
	}
	sort.Strings(files)
	var dir string
	if tt, ok := t.(*testing.T); ok {
		dir = dbtest.InitDB(tt, files)
		// InitDB leaves trivy-db's handle open read-write; Scan opens its own.
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	} else {
		dir = initDBBench(t, files)
	}
	meta := `{"Version":2,"NextUpdate":"2099-01-01T00:00:00Z","UpdatedAt":"2026-11-01T00:00:00Z","DownloadedAt":"2026-11-01T00:00:00Z"}`
	if err := os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// initDBBench loads the fixtures with the loader dbtest.InitDB uses (it
// takes a *testing.T, benchmarks have a *testing.B).
func initDBBench(t testing.TB, files []string) string {
	t.Helper()
	dir := t.TempDir()
	loader, err := fixtures.New(db.Path(dir), files)
	if err != nil {
		t.Fatal(err)
	}
	if err := loader.Load(); err != nil {
		t.Fatal(err)
	}
	if err := loader.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}
