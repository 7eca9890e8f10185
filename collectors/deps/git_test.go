package deps

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestRevisionsAgree: the one-call rev-parse gives what the step-by-step
// calls give — forked branches, a base that is the head's ancestor, and
// unrelated histories — and gives up on what it cannot resolve.
func TestRevisionsAgree(t *testing.T) {
	g := newGitRepo(t)
	g.write(map[string]string{"a": "1"})
	g.commit("one")
	g.run("checkout", "-q", "-b", "agent")
	g.write(map[string]string{"a": "2"})
	g.commit("agent")
	g.run("checkout", "-q", "main")
	g.write(map[string]string{"a": "3"})
	g.commit("main")
	g.run("checkout", "-q", "--orphan", "other")
	g.write(map[string]string{"b": "1"})
	g.run("add", "-A")
	g.commit("unrelated")
	g.run("checkout", "-q", "main")
	ctx := context.Background()
	r, err := openRepo(ctx, g.dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{"main", "agent"}, {"main~1", "main"}, {"main", "other"}, {"agent", "HEAD"}} {
		b, h, mb, ok := r.revisions(ctx, c[0], c[1])
		if !ok {
			t.Errorf("%v: revisions gave up", c)
			continue
		}
		d := &model.Deps{Base: model.DepsRef{Ref: c[0]}}
		if err := resolveEach(ctx, r, d, c[1]); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{d.Base.SHA, d.Head.SHA, d.MergeBase}, []string{b, h, mb}); diff != "" {
			t.Errorf("%v (-each +one call):\n%s", c, diff)
		}
	}
	for _, c := range [][2]string{{"nope", "main"}, {"main", "nope"}, {"-p", "main"}, {"main...agent", "main"}} {
		if _, _, _, ok := r.revisions(ctx, c[0], c[1]); ok {
			t.Errorf("%v: revisions resolved what it should leave to resolveEach", c)
		}
	}
}

// TestPrefetchAgrees: files read from one cat-file --batch are what git
// show and ls-tree give one by one: content, absence, a directory at the
// path, a subdirectory prefix; and a batch that fails leaves every file to
// its own call.
func TestPrefetchAgrees(t *testing.T) {
	g := newGitRepo(t)
	g.write(map[string]string{
		"sub/package.json":          `{"name":"x"}`,
		"sub/yarn.lock/x":           "a directory where a file was expected",
		"sub/with space/Cargo.lock": "# space\n",
		"top.txt":                   "outside the prefix",
	})
	rev := g.commit("one")
	ctx := context.Background()
	r, err := openRepo(ctx, filepath.Join(g.dir, "sub"), 0)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"package.json", "yarn.lock", "with space/Cargo.lock", "missing.lock", "top.txt"}
	type got struct {
		Exists map[string]bool
		Data   map[string]string
	}
	read := func() got {
		ex, err := r.exists(ctx, rev, paths)
		if err != nil {
			t.Fatal(err)
		}
		out := got{Exists: ex, Data: map[string]string{}}
		for _, p := range paths {
			data, err := r.read(ctx, rev, p)
			if err != nil {
				data = []byte("error")
			}
			out.Data[p] = string(data)
		}
		return out
	}
	each := read()
	r.prefetch(ctx, []string{rev, ""}, paths)
	if len(r.objects) != len(paths) {
		t.Fatalf("prefetch read %d objects, want %d", len(r.objects), len(paths))
	}
	if diff := cmp.Diff(each, read()); diff != "" {
		t.Errorf("(-one by one +batched):\n%s", diff)
	}
	if each.Data["package.json"] != `{"name":"x"}` || !each.Exists["yarn.lock"] || each.Exists["missing.lock"] || each.Exists["top.txt"] {
		t.Errorf("unexpected files: %+v", each)
	}

	// A corrupt blob is still there: an error to read, never an absent
	// file (cat-file --batch answers "missing" for it by name).
	obj := strings.TrimSpace(g.run("rev-parse", rev+":sub/package.json"))
	p := filepath.Join(g.dir, ".git", "objects", obj[:2], obj[2:])
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.objects = nil
	each = read()
	r.prefetch(ctx, []string{rev}, paths)
	if r.objects == nil {
		t.Fatal("the batch failed on a corrupt blob")
	}
	if diff := cmp.Diff(each, read()); diff != "" {
		t.Errorf("corrupt blob (-one by one +batched):\n%s", diff)
	}
	if !each.Exists["package.json"] || each.Data["package.json"] != "error" {
		t.Errorf("corrupt package.json: exists=%v data=%q", each.Exists["package.json"], each.Data["package.json"])
	}
}

// FuzzParseTree: any bytes give entries or an error, never a panic.
func FuzzParseTree(f *testing.F) {
	f.Add([]byte("100644 a\x00aaaaaaaaaaaaaaaaaaaa40000 d\x00bbbbbbbbbbbbbbbbbbbb"), 20)
	f.Add([]byte("100644 a"), 32)
	f.Fuzz(func(t *testing.T, data []byte, oidLen int) {
		if oidLen != 20 && oidLen != 32 {
			return
		}
		es, err := parseTree(data, oidLen)
		if err == nil {
			for _, e := range es {
				if len(e.oid) != 2*oidLen {
					t.Fatalf("oid %q", e.oid)
				}
			}
		}
	})
}

// TestPrefetchLargeChange: a change touching more files than the pipes
// hold finishes (requests are written while answers are read).
func TestPrefetchLargeChange(t *testing.T) {
	g := newGitRepo(t)
	files := map[string]string{}
	for i := range 1200 {
		files[fmt.Sprintf("packages/pkg-%04d/package.json", i)] = `{"name":"p","version":"1.0.0","dependencies":{"left-pad":"1.3.0"}}`
	}
	g.write(files)
	g.commit("base")
	for p := range files {
		files[p] = `{"name":"p","version":"1.0.1","dependencies":{"left-pad":"1.3.0"}}`
	}
	g.write(files)
	g.commit("bump every package")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, _, err := Scan(ctx, Options{Repo: g.dir, Base: "HEAD~1", Head: "HEAD", DBDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.ChangedFiles) != 1200 {
		t.Errorf("%d changed files, want 1200", len(d.ChangedFiles))
	}
}

// TestPrefetchUnreadableTree: a folder whose tree git cannot read (corrupt,
// or not fetched in a partial clone) is an error, not an absent folder whose
// lockfile the change would seem to add whole.
func TestPrefetchUnreadableTree(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "app")
	g.commit("base")
	g.copyDir(filepath.Join(fixtureDir, "npm", "head"), "app")
	g.commit("head")
	tree := strings.TrimSpace(g.run("rev-parse", "HEAD~1:app"))
	if err := os.Remove(filepath.Join(g.dir, ".git", "objects", tree[:2], tree[2:])); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := openRepo(ctx, g.dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(g.run("rev-parse", "HEAD~1"))
	paths := []string{"app/package-lock.json", "app/package.json", "gone/package.json"}
	r.prefetch(ctx, []string{base}, paths)
	if _, cached := r.objects[base+":app/package-lock.json"]; cached {
		t.Error("a file under an unreadable tree was answered from the batch")
	}
	if o, cached := r.objects[base+":gone/package.json"]; !cached || !o.missing {
		t.Errorf("a file under an absent folder: cached=%v %+v, want missing", cached, o)
	}
	if _, err := r.exists(ctx, base, paths[:1]); err == nil {
		t.Error("no error for a file under an unreadable tree")
	}
	d, _, err := Scan(ctx, Options{Repo: g.dir, Base: "HEAD~1", Head: "HEAD", DBDir: t.TempDir()})
	if err == nil {
		t.Errorf("scan over an unreadable tree succeeded with %d packages", len(d.Packages))
	}
}
