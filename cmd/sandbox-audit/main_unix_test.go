//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
)

// TestMain lets the test binary be the command: with SANDBOX_AUDIT_MAIN=1
// it runs main() itself, signal handling and exit code included, as the
// built binary does.
func TestMain(m *testing.M) {
	if os.Getenv("SANDBOX_AUDIT_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// started is a running sandbox-audit, its output collected.
type started struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

func start(t *testing.T, args ...string) *started {
	t.Helper()
	s := &started{cmd: exec.Command(os.Args[0], args...)}
	s.cmd.Env = append(os.Environ(), "SANDBOX_AUDIT_MAIN=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	s.cmd.Stdout, s.cmd.Stderr = &s.stdout, &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			s.cmd.Wait()
		}
	})
	return s
}

// stop sends sig and returns the exit code and how long the process took
// to end after it.
func (s *started) stop(t *testing.T, sig os.Signal) (int, time.Duration) {
	t.Helper()
	at := time.Now()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := s.cmd.Wait()
	took := time.Since(at)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, took
	case errors.As(err, &ee):
		return ee.ExitCode(), took // -1 when a signal killed it
	}
	t.Fatal(err)
	return 0, 0
}

// children lists the pids whose parent is pid.
func children(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, n)
		}
	}
	return out
}

// zombie says whether pid has exited (and waits to be reaped).
func zombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err != nil || bytes.Contains(b[bytes.LastIndexByte(b, ')'):], []byte(") Z "))
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestSignalStopsStuckChild: SIGTERM and SIGINT end a run whose git child
// is blocked for good (a FIFO .gitignore: git opens it and waits for a
// writer) at once, with exit 2, the child gone with it.
func TestSignalStopsStuckChild(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		testenv.SkipOutsideCI(t, "needs /proc to find the git child")
	}
	repo := t.TempDir()
	gitRun(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "package.json"), []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "add", "-A")
	gitRun(t, repo, "commit", "-q", "-m", "base")
	if err := syscall.Mkfifo(filepath.Join(repo, ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(fmt.Sprint(sig), func(t *testing.T) {
			s := start(t, "deps", "--base", "main", "--db", t.TempDir(), repo)
			var kids []int
			for deadline := time.Now().Add(30 * time.Second); len(kids) == 0; {
				if time.Now().After(deadline) {
					t.Fatalf("no git child after 30s; stderr: %s", s.stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
				kids = children(s.cmd.Process.Pid)
			}
			time.Sleep(200 * time.Millisecond) // let it block on the FIFO
			code, took := s.stop(t, sig)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, s.stderr.String())
			}
			if took > shutdownGrace+time.Second {
				t.Errorf("took %v after the signal", took)
			}
			if !strings.Contains(s.stderr.String(), "interrupted") {
				t.Errorf("stderr does not say it was interrupted: %s", s.stderr.String())
			}
			for _, k := range kids {
				if !zombie(k) {
					t.Errorf("git child %d outlived the run", k)
				}
			}
		})
	}
}

// TestSignalStopsLongScan: a scan busy for minutes (a compose file with
// thousands of services) ends within the grace period of SIGTERM, exit 2.
func TestSignalStopsLongScan(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("services:\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "  s%d:\n    image: x:%d\n    privileged: true\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, "scan", "-f", "json", dir)
	time.Sleep(1500 * time.Millisecond)
	if zombie(s.cmd.Process.Pid) {
		testenv.SkipOutsideCI(t, "the scan ended before the signal: nothing to interrupt")
	}
	code, took := s.stop(t, syscall.SIGTERM)
	if code != 2 {
		t.Errorf("exit %d, want 2; stderr: %s", code, s.stderr.String())
	}
	if took > shutdownGrace+time.Second {
		t.Errorf("took %v after the signal", took)
	}
	t.Logf("stderr: %s", s.stderr.String())
	if strings.Contains(s.stdout.String(), `"verdict"`) {
		t.Errorf("an interrupted scan printed a report")
	}
}
