//go:build linux

package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

func hasUnavailable(l *model.Live, check, reason string) bool {
	for _, u := range l.Unavailable {
		if u.Check == check && u.Reason == reason {
			return true
		}
	}
	return false
}

// TestEmptyRootUnavailable: a root with no /proc, /etc or /sys (a non-Linux
// machine, a broken mount) must say what it could not check, never pass.
func TestEmptyRootUnavailable(t *testing.T) {
	l, _, _ := Collect(context.Background(), Options{Root: t.TempDir()})
	if l.Isolation.Kind != "unknown" || l.Isolation.Confidence != "low" {
		t.Errorf("isolation = %+v, want unknown/low", l.Isolation)
	}
	for _, w := range []model.Unavailable{
		{Check: "isolation", Reason: "/proc/version: no such file"},
		{Check: "isolation", Reason: "/proc/cmdline: no such file"},
		{Check: "isolation", Reason: "/proc/self/cgroup: no such file"},
		{Check: "privileges", Reason: "/proc/self/status: no such file"},
		{Check: "privileges", Reason: "/proc/self/uid_map: no such file"},
		{Check: "privileges", Reason: "/proc/self/attr/current: no such file"},
		{Check: "mounts", Reason: "/proc/self/mountinfo: no such file"},
		{Check: "network", Reason: "/proc/net/route: no such file"},
		{Check: "network", Reason: "/etc/resolv.conf: no such file"},
		{Check: "reuse", Reason: "/proc/uptime: no such file"},
		{Check: "credentials", Reason: "/proc/self/environ: no such file"},
		{Check: "credentials", Reason: "/etc/passwd: no such file"},
	} {
		if !hasUnavailable(l, w.Check, w.Reason) {
			t.Errorf("missing unavailable %+v in %+v", w, l.Unavailable)
		}
	}
	if l.Privileges.Seccomp != "" || l.Privileges.NoNewPrivs != nil || l.Privileges.UserNS.Mapped != nil {
		t.Errorf("privileges reported without evidence: %+v", l.Privileges)
	}
}

func TestMissingRoot(t *testing.T) {
	l, creds, _ := Collect(context.Background(), Options{Root: filepath.Join(t.TempDir(), "nope")})
	if len(l.Unavailable) != 1 || l.Unavailable[0].Check != "root" || l.Isolation.Kind != "unknown" || len(creds) != 0 {
		t.Errorf("missing root: %+v", l)
	}
}

// TestNonRegularFiles: a FIFO where a credential file should be would
// block a naive reader forever; a directory where /proc/self/status
// should be is not a status file.
func TestNonRegularFiles(t *testing.T) {
	root := t.TempDir()
	mustMkdir(t, filepath.Join(root, "proc/self/status"))
	mustMkdir(t, filepath.Join(root, "root/.aws"))
	if err := syscall.Mkfifo(filepath.Join(root, "root/.aws/credentials"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan *model.Live)
	go func() {
		l, _, _ := Collect(context.Background(), Options{Root: root, Env: []string{}})
		done <- l
	}()
	select {
	case l := <-done:
		for _, w := range [][2]string{
			{"privileges", "/proc/self/status: not a regular file"},
			{"credentials", "/root/.aws/credentials: not a regular file"},
		} {
			if !hasUnavailable(l, w[0], w[1]) {
				t.Errorf("missing unavailable %q in %+v", w, l.Unavailable)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Collect blocked on a FIFO")
	}
}

// nobodyHelper audits SANDBOX_AUDIT_ROOT as whatever user it runs as.
func nobodyHelper() int {
	l, _, _ := Collect(context.Background(), Options{Root: os.Getenv("SANDBOX_AUDIT_ROOT"), Env: []string{"HOME=/home/alice"}})
	if err := json.NewEncoder(os.Stdout).Encode(l.Unavailable); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	return 0
}

// TestPermissionDenied runs the audit as nobody over files only root may
// read: each becomes an unavailable entry saying "permission denied".
func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOutsideCI(t, "needs root to switch to nobody")
	}
	dir, err := os.MkdirTemp("", "live-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	root := filepath.Join(dir, "root")
	for _, f := range []string{"proc/self/status", "proc/self/mountinfo", "home/alice/.aws/credentials", "home/alice/.ssh/id_ed25519"} {
		mustMkdir(t, filepath.Join(root, filepath.Dir(f)))
		if err := os.WriteFile(filepath.Join(root, f), []byte("x = y\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	bin := filepath.Join(dir, "live.test")
	copyExec(t, os.Args[0], bin)
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = []string{helperEnv + "=nobody", "SANDBOX_AUDIT_ROOT=" + root}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper as nobody: %v", err)
	}
	var un []model.Unavailable
	if err := json.Unmarshal(out, &un); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	l := &model.Live{Unavailable: un}
	for _, w := range [][2]string{
		{"privileges", "/proc/self/status: permission denied"},
		{"mounts", "/proc/self/mountinfo: permission denied"},
		{"credentials", "/home/alice/.aws/credentials: permission denied"},
		{"credentials", "/home/alice/.ssh/id_ed25519: permission denied"},
	} {
		if !hasUnavailable(l, w[0], w[1]) {
			t.Errorf("missing unavailable %q in %+v", w, un)
		}
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func copyExec(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
