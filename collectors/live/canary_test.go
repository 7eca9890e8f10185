package live

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCanaryAcrossRuns: the first run on a root leaves a marker, the
// second finds it, which is the proof that state carried over.
func TestCanaryAcrossRuns(t *testing.T) {
	root := copyFixture(t, "docker-default")
	opt := fixtureOptions(root, time.Time{})
	opt.Canary = "/var/tmp/.sandbox-audit/canary"
	first, _, _ := Collect(context.Background(), opt)
	c1 := first.Reuse.Canary
	if c1 == nil || !c1.Written || c1.FoundPrevious || len(c1.Nonce) != 32 || c1.Error != "" {
		t.Fatalf("first run canary = %+v", c1)
	}
	second, _, _ := Collect(context.Background(), opt)
	c2 := second.Reuse.Canary
	if c2 == nil || !c2.FoundPrevious || c2.PreviousNonce != c1.Nonce || c2.Nonce == c1.Nonce ||
		c2.PreviousWrittenAt == "" || c2.PreviousBootID != first.Reuse.BootID {
		t.Fatalf("second run canary = %+v (first %+v)", c2, c1)
	}
	// A fresh root (a disposable sandbox) has no marker.
	fresh, _, _ := Collect(context.Background(), fixtureOptions(copyFixture(t, "docker-default"), time.Time{}))
	if fresh.Reuse.Canary != nil {
		t.Errorf("canary without the option: %+v", fresh.Reuse.Canary)
	}
}

// TestCanaryForeignFile: a file that is not our marker is neither taken
// for proof of reuse nor overwritten.
func TestCanaryForeignFile(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "etc/hostname")
	mustMkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte("box\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, _, _ := Collect(context.Background(), Options{Root: root, Env: []string{}, Canary: "/etc/hostname"})
	if c := l.Reuse.Canary; c == nil || c.FoundPrevious || c.Written || c.Error == "" {
		t.Errorf("canary = %+v", c)
	}
	if data, _ := os.ReadFile(p); string(data) != "box\n" {
		t.Errorf("foreign file overwritten: %q", data)
	}
}
