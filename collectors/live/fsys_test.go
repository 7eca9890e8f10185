package live

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// TestRootConfinesSymlinks: absolute and ../ links inside a non-"/" root
// resolve inside it, as chroot would, so a fixture or another container's
// filesystem never makes the audit read the host.
func TestRootConfinesSymlinks(t *testing.T) {
	root := t.TempDir()
	mustMkdir(t, filepath.Join(root, "run"))
	mustMkdir(t, filepath.Join(root, "var"))
	mustMkdir(t, filepath.Join(root, "etc"))
	if err := os.WriteFile(filepath.Join(root, "run/marker"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"var/run":     "/run",           // absolute: must mean <root>/run
		"etc/escape":  "../../../../..", // climbs above the root
		"etc/hostile": "/etc/hostname",  // the host's file, if followed naively
		"loop":        "loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	r, err := newRootFS(root)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := r.readFile("/var/run/marker"); err != nil || string(data) != "inside" {
		t.Errorf("/var/run/marker = %q, %v", data, err)
	}
	if hp, err := r.resolve("/etc/escape/run/marker", true); err != nil || hp != filepath.Join(root, "run/marker") {
		t.Errorf("escape resolved to %q, %v", hp, err)
	}
	if _, err := r.readFile("/etc/hostile"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("/etc/hostile read the host's file or failed oddly: %v", err)
	}
	if _, err := r.readFile("/loop"); err == nil || reason(err) != "too many symlinks" {
		t.Errorf("/loop: %v", err)
	}
}

// TestReadFileRefuses: a FIFO and a device are refused at once (never
// waited on), and a file over the cap is an error, not a truncated read.
func TestReadFileRefuses(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(root, "zero")); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(root, "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxRead+1); err != nil {
		t.Fatal(err)
	}
	r, err := newRootFS("/")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, p := range []string{filepath.Join(root, "fifo"), filepath.Join(root, "zero")} {
		if _, err := r.readFile(p); !errors.Is(err, errNotRegular) {
			t.Errorf("%s: %v, want %v", p, err, errNotRegular)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
	var tl *collectors.TooLargeError
	if _, err := r.readFile(big); !errors.As(err, &tl) {
		t.Errorf("a file over the cap: %v, want a TooLargeError", err)
	}
}
