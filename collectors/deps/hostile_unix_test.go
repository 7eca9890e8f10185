//go:build unix

package deps

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGitTimeout: a git that blocks for good (a FIFO .gitignore: git opens
// it without O_NONBLOCK) fails the scan after the deadline, not hangs it.
func TestGitTimeout(t *testing.T) {
	g := npmChange(t)
	if err := syscall.Mkfifo(filepath.Join(g.dir, ".gitignore"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
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
