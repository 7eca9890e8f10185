package fleet

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
)

func TestCheckGit(t *testing.T) {
	for _, tt := range []struct{ url, ref, err string }{
		{"https://github.com/org/repo.git", "main", ""},
		{"git@github.com:org/repo.git", "", ""},
		{"ssh://git@example.com/org/repo", "v1.2.0", ""},
		{"file:///srv/git/repo", "0123456789abcdef0123456789abcdef01234567", ""},
		{"https://bot:ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/org/repo", "", "holds credentials"},
		{"https://ghp_0123456789abcdefghijklmnopqrstuvwxyz@github.com/org/repo", "", "holds credentials"},
		{"--upload-pack=touch /tmp/x", "", "not a repository URL"},
		{"ext::sh -c touch% /tmp/x", "", "not a repository URL"},
		{"ext::sh", "", "scheme"},
		{"https://github.com/org/repo", "--upload-pack=x", "not a branch"},
		{"https://github.com/org/repo", "a..b", "not a branch"},
	} {
		err := checkGit(tt.url, tt.ref)
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q %q: %v, want %q", tt.url, tt.ref, err, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "ghp_") {
			t.Errorf("the error quotes the password: %v", err)
		}
	}
	for url, want := range map[string]string{
		"https://github.com/org/repo.git": "github.com/org/repo",
		"git@github.com:org/repo.git":     "github.com/org/repo",
		"file:///srv/git/repo/":           "/srv/git/repo",
	} {
		if got := gitID(url, ""); got != want {
			t.Errorf("gitID(%q) = %q, want %q", url, got, want)
		}
	}
	if got := gitID("https://github.com/org/repo", "v2"); got != "github.com/org/repo@v2" {
		t.Errorf("with a ref: %q", got)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestGitTargets: git targets are fetched (file:// here) at their ref and
// audited at that commit, which the store records; a later commit is
// fetched into the same cache; a repository that cannot be fetched is
// that target's error. A filter driver the auditing user's own git
// configuration defines is not run by the fetched tree's .gitattributes.
func TestGitTargets(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed (CI installs it)")
	}
	ctx := context.Background()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	marker := filepath.Join(root, "filter-ran")
	write(t, home, map[string]string{".gitconfig": "[filter \"evil\"]\n\tsmudge = touch " + marker + "; cat\n\tclean = touch " + marker + "; cat\n"})
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")

	repo := filepath.Join(root, "upstream")
	write(t, repo, map[string]string{"compose.yaml": privileged, ".gitattributes": "* filter=evil\n"})
	git(t, root, "init", "-q", "-b", "main", repo)
	git(t, repo, "-c", "filter.evil.clean=cat", "add", ".")
	git(t, repo, "commit", "-q", "-m", "one")
	first := git(t, repo, "rev-parse", "HEAD")
	git(t, repo, "tag", "v1")
	if err := os.Remove(marker); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}

	ts, st := gitRun(t, root, "version: 1\ntargets:\n  - git: file://"+repo+"\n    ref: main\n  - name: pinned\n    git: file://"+repo+"\n    ref: v1\n  - git: file://"+filepath.Join(root, "nowhere")+"\n")
	cache := filepath.Join(root, "cache")
	opt := Options{Concurrency: 2, GitCache: cache}
	sum, err := Scan(ctx, ts, st, opt)
	if err != nil || sum.Stored != 3 || sum.Failed != 1 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	res := stored(t, st, sum.Run)
	main := res[gitID("file://"+repo, "main")]
	if main == nil || main.Revision != first || !hasRule(main, "privileged-container") {
		t.Fatalf("main: %+v", main)
	}
	gone := res[gitID("file://"+filepath.Join(root, "nowhere"), "")]
	if gone == nil || !strings.Contains(gone.Error, "git fetch") {
		t.Errorf("a repository that cannot be fetched: %+v", gone)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a filter driver of the user's git configuration ran on the fetched tree")
	}

	write(t, repo, map[string]string{"compose.yaml": "services:\n  agent:\n    image: example/claude-runner:1\n    read_only: true\n"})
	git(t, repo, "-c", "filter.evil.clean=cat", "commit", "-q", "-am", "two")
	second := git(t, repo, "rev-parse", "HEAD")
	os.Remove(marker)
	sum, err = Scan(ctx, ts, st, opt)
	if err != nil || sum.Stored != 3 {
		t.Fatalf("second run: %+v, %v", sum, err)
	}
	res = stored(t, st, sum.Run)
	if m := res[gitID("file://"+repo, "main")]; m.Revision != second || hasRule(m, "privileged-container") {
		t.Errorf("main after the fix: %+v", m)
	}
	if p := res["pinned"]; p.Revision != first || !hasRule(p, "privileged-container") {
		t.Errorf("pinned at v1: %+v", p)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a filter driver ran on the second fetch")
	}
}

// TestGitTargetsRelativeCache: a relative --git-cache is the directory of
// that name where the command runs. Every git target used to fail with
// "git init: ... cannot change to 'cache/…'": git was run in the
// directory and told -C it as well.
func TestGitTargetsRelativeCache(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed (CI installs it)")
	}
	ctx := context.Background()
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("XDG_CONFIG_HOME", "")
	repo := filepath.Join(root, "upstream")
	write(t, repo, map[string]string{"compose.yaml": privileged})
	git(t, root, "init", "-q", "-b", "main", repo)
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "one")
	ts, st := gitRun(t, root, "version: 1\ntargets:\n  - git: file://"+repo+"\n    ref: main\n")
	t.Chdir(root)
	sum, err := Scan(ctx, ts, st, Options{Concurrency: 1, GitCache: "cache"})
	if err != nil || sum.Stored != 1 || sum.Failed != 0 {
		t.Fatalf("summary %+v, %v", sum, err)
	}
	res := stored(t, st, sum.Run)
	if m := res[gitID("file://"+repo, "main")]; m == nil || m.Error != "" || !hasRule(m, "privileged-container") {
		t.Fatalf("with a relative cache: %+v", m)
	}
	if fi, err := os.Stat(filepath.Join(root, "cache")); err != nil || !fi.IsDir() {
		t.Errorf("the cache is not ./cache of where it ran: %v", err)
	}
}

func hasRule(r *Result, rule string) bool {
	for _, f := range r.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestFetchHungServer: a git server that accepts and never answers is given
// up at the target's time limit, with git's helpers (git-remote-http, which
// holds git's stderr) killed too: the fetch used to wait for ever.
func TestFetchHungServer(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed (CI installs it)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // read nothing, answer nothing
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	g := &GitSource{URL: fmt.Sprintf("http://127.0.0.1:%d/repo.git", port)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, _, err = g.Fetch(ctx, t.TempDir())
	if err == nil {
		t.Fatal("fetch from a server that never answers succeeded")
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("fetch returned after %v, want about the 2 s limit", d)
	}
	// no helper is left running against the server
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := helpersFor(t, strconv.Itoa(port))
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("git processes left running: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// helpersFor lists processes whose command line names the port.
func helpersFor(t *testing.T, port string) []string {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		testenv.SkipOutsideCI(t, "no /proc to look for git's helpers in")
	}
	var out []string
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		if strings.Contains(cmd, "git") && strings.Contains(cmd, "127.0.0.1:"+port) {
			// a zombie has an empty cmdline; a live helper its arguments
			out = append(out, d.Name()+": "+cmd)
		}
	}
	return out
}

// gitRun expands an inventory read in root and opens a SQLite store there,
// closed when the test ends.
func gitRun(t *testing.T, root, inventory string) ([]Target, *Store) {
	t.Helper()
	inv, err := ParseInventory("inv.yaml", []byte(inventory))
	if err != nil {
		t.Fatal(err)
	}
	inv.Dir = root
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(context.Background(), filepath.Join(root, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return ts, st
}
