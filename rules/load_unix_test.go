//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAddDirReadsOnlyRegularFiles: a rule directory in the tree under audit
// cannot make the tool read a FIFO (it would wait for ever), a device or a
// symlinked file (its content would be quoted by the parse error): each is
// refused at once, naming the file.
func TestAddDirReadsOnlyRegularFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(secret, []byte("root:$6$Tok3nTok3n:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, make := range map[string]func(p string) error{
		"fifo.rego":   func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"shadow.rego": func(p string) error { return os.Symlink(secret, p) },
		"zero.rego":   func(p string) error { return os.Symlink("/dev/zero", p) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := make(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			s := newSet()
			start := time.Now()
			err := s.AddDir(dir)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("AddDir: %v, want an error naming %s", err, name)
			}
			if strings.Contains(err.Error(), "Tok3n") {
				t.Errorf("the error quotes the file: %v", err)
			}
			want := "symlink not followed"
			if name == "fifo.rego" {
				want = "a named pipe (FIFO), not a regular file"
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("AddDir: %v, want %q", err, want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
	for _, dir := range []string{"/dev/zero", filepath.Join(t.TempDir(), "none")} {
		if err := newSet().AddDir(dir); err == nil {
			t.Errorf("AddDir(%s) accepted", dir)
		}
	}
}
