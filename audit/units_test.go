package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// fleetTree is a tree of repositories checked out side by side: a
// generated corpus (a .git directory in each of its repositories), each
// scenario fixture as a repository of its own, and files outside every
// repository. It returns the tree and the repositories' directories. With
// links, it holds Kubernetes policies that select pods of other
// repositories (cluster-wide Cilium and Calico policies).
func fleetTree(t *testing.T, links bool) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := corpus.Generate(dir, 300, 7); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join("..", "fixtures", "scenarios")
	es, err := os.ReadDir(scen)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if !links && strings.HasPrefix(e.Name(), "k8s-") {
			continue
		}
		repo := filepath.Join(dir, "scenario-"+e.Name())
		if err := os.CopyFS(repo, os.DirFS(filepath.Join(scen, e.Name()))); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, ".git", "config"), []byte("[core]\n\tbare = false\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// outside every repository: one unit of their own
	if err := os.CopyFS(filepath.Join(dir, "loose"), os.DirFS(filepath.Join(scen, "devcontainer-dood"))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "zz-loose"), os.DirFS(filepath.Join("..", "fixtures", "mcp"))); err != nil {
		t.Fatal(err)
	}
	if links {
		if err := os.CopyFS(filepath.Join(dir, "zz-loose", "k8s"), os.DirFS(filepath.Join("..", "fixtures", "kubernetes"))); err != nil {
			t.Fatal(err)
		}
	}
	var repos []string
	all, _ := os.ReadDir(dir)
	for _, e := range all {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), ".git")); err == nil {
			repos = append(repos, e.Name())
		}
	}
	return dir, repos
}

// TestUnitsJudgeAsWhole is the differential test of a fleet tree read and
// judged one repository at a time: where every repository's roles are
// decided within it anyway (each holds a .git/config) and nothing links
// across repositories, the report is, byte for byte, the one the whole
// model gives, in parts of every size. (With links across repositories
// it is not: no policy of one repository selects another's pods, see
// TestUnitsAsEachAlone.)
func TestUnitsJudgeAsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("judges a tree twice")
	}
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := fleetTree(t, false)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	judge := func(whole bool, size int) string {
		t.Helper()
		opt := Options{Path: dir, Now: now, whole: whole, partFiles: size}
		col, err := Collect(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		if (col.plan != nil) == whole {
			t.Fatalf("whole %v: read unit by unit %v", whole, col.plan != nil)
		}
		rep, err := eng.Judge(ctx, col, opt)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := (reports.JSON{}).Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	whole := judge(true, 0)
	if n := strings.Count(whole, `"rule_id"`); n < 300 {
		t.Fatalf("only %d findings", n)
	}
	for _, size := range []int{0, 16, 1 << 30} {
		if diff := cmp.Diff(strings.Split(whole, "\n"), strings.Split(judge(false, size), "\n")); diff != "" {
			t.Errorf("unit by unit, parts of %d files: the report differs from the whole model's (-whole +units):\n%s", size, diff)
		}
	}
}

// TestUnitsAsEachAlone: a tree of repositories gives each repository the
// findings and workloads that scanning it alone gives (with its paths
// under its directory), cluster-wide policies of one repository beside
// another's pods included.
func TestUnitsAsEachAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("judges every repository of a tree")
	}
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	dir, repos := fleetTree(t, true)
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	tree, err := eng.Run(ctx, Options{Path: dir, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	byRepo := map[string][]string{}
	for _, f := range tree.Findings {
		repo, rest, _ := strings.Cut(f.File, "/")
		byRepo[repo] = append(byRepo[repo], strings.Join([]string{f.RuleID, rest, f.Severity, strings.ReplaceAll(f.Message, repo+"/", "")}, " | "))
	}
	wl := map[string][]string{}
	for _, w := range tree.Workloads {
		repo, rest, _ := strings.Cut(w.File, "/")
		wl[repo] = append(wl[repo], strings.Join([]string{w.Name, rest, w.Role, w.Source, strings.ReplaceAll(w.Reason, repo+"/", "")}, " | "))
	}
	if len(repos) < 30 {
		t.Fatalf("only %d repositories", len(repos))
	}
	for _, r := range repos {
		alone, err := eng.Run(ctx, Options{Path: filepath.Join(dir, r), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		var got, gotW []string
		for _, f := range alone.Findings {
			got = append(got, strings.Join([]string{f.RuleID, f.File, f.Severity, f.Message}, " | "))
		}
		for _, w := range alone.Workloads {
			gotW = append(gotW, strings.Join([]string{w.Name, w.File, w.Role, w.Source, w.Reason}, " | "))
		}
		sort.Strings(got)
		sort.Strings(byRepo[r])
		if diff := cmp.Diff(got, byRepo[r]); diff != "" {
			t.Errorf("%s: findings differ from the repository's alone (-alone +in the tree):\n%s", r, diff)
		}
		if diff := cmp.Diff(gotW, wl[r]); diff != "" {
			t.Errorf("%s: workloads differ from the repository's alone (-alone +in the tree):\n%s", r, diff)
		}
	}
}

// TestUnitsDecideRolesPerRepository: in a fleet tree whose repositories
// are worktrees (.git is a file: no .git/config is read to tell them
// apart), one repository's agent devcontainer does not leave another's
// unknown service unjudged, as it did when the tree was judged whole.
func TestUnitsDecideRolesPerRepository(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/.git", "gitdir: /srv/git/a/worktrees/a\n")
	write("a/.devcontainer/devcontainer.json", `{"name": "a-dev", "image": "mcr.microsoft.com/devcontainers/base:1"}`+"\n")
	write("b/.git", "gitdir: /srv/git/b/worktrees/b\n")
	write("b/compose.yaml", "services:\n  app:\n    image: example.com/app:1\n    privileged: true\n")
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	app := func(whole bool) reports.Workload {
		t.Helper()
		opt := Options{Path: dir, Now: time.Now(), whole: whole}
		col, err := Collect(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eng.Judge(ctx, col, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range rep.Workloads {
			if w.File == "b/compose.yaml" {
				return w
			}
		}
		t.Fatalf("no workload of b/compose.yaml in %+v", rep.Workloads)
		return reports.Workload{}
	}
	if w := app(true); w.Judged || !strings.Contains(w.Reason, "a-dev is") {
		t.Errorf("judged whole: b's app %+v, want it unjudged beside a's devcontainer (scan-wide)", w)
	}
	if w := app(false); !w.Judged || w.Role != "unknown" || !strings.Contains(w.Reason, "no workload is known to be the agent's") {
		t.Errorf("unit by unit: b's app %+v, want it judged: no workload of b is known to be the agent's", w)
	}
}
