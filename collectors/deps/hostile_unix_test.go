//go:build unix

package deps

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
)

// TestGitTimeout: a git that blocks for good (a FIFO .gitignore: git opens
// it without O_NONBLOCK) fails the scan after the deadline, not hangs it.
func TestGitTimeout(t *testing.T) {
	g := npmChange(t)
	if err := syscall.Mkfifo(filepath.Join(g.dir, ".gitignore"), 0o644); err != nil {
		testenv.SkipOutsideCI(t, "no FIFOs here: "+err.Error())
	}
	start := time.Now()
	_, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir(), GitTimeout: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no answer within") {
		t.Errorf("scan: %v, want a timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestSafeDirectoryCarriedOver: a repository owned by another user is
// refused by git for its owner; the auditing user's own safe.directory
// (global config, as actions/checkout writes it in a container job) is
// carried into the fixed configuration, and nothing else of that config.
func TestSafeDirectoryCarriedOver(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.SkipOutsideCI(t, "needs root to give the repository another owner")
	}
	g := npmChange(t)
	if err := filepath.WalkDir(g.dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}); err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(t.TempDir(), "gitconfig")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	if err := os.WriteFile(global, []byte("[core]\n\tfsmonitor = /nonexistent/never-run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Fatalf("another owner's repository, not marked safe: %v", err)
	}
	if err := os.WriteFile(global, []byte("[safe]\n\tdirectory = "+g.dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()})
	if err != nil {
		t.Fatalf("marked safe by the user: %v", err)
	}
	if len(d.Packages) != 1 {
		t.Errorf("packages %v", summaries(d))
	}
}
