package live

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
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
