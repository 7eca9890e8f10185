//go:build unix

package collectors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const secretLine = "root:$6$not-a-real-hash:19000:0:99999:7:::"

// hostile builds a folder with every kind of path a hostile tree holds,
// and a file outside it with content that must never be read.
func hostile(t *testing.T) (dir, outside string) {
	t.Helper()
	dir, outside = t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "shadow")
	must(t, os.WriteFile(secret, []byte(secretLine+"\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("a: 1\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "cap.yaml"), []byte("0123456789"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "big.yaml"), []byte("01234567890"), 0o644))
	must(t, os.Symlink(secret, filepath.Join(dir, "link.yaml")))
	must(t, os.Symlink("ok.yaml", filepath.Join(dir, "inside-link.yaml")))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "sub", "ok.yaml"), []byte("b: 2\n"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(dir, "out")))
	must(t, os.Symlink("sub", filepath.Join(dir, "sublink")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644))
	return dir, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type readCase struct {
	rel, want, reason string
}

var readCases = []readCase{
	{rel: "ok.yaml", want: "a: 1\n"},
	{rel: "sub/ok.yaml", want: "b: 2\n"},
	{rel: "cap.yaml", want: "0123456789"},
	{rel: "big.yaml", reason: "11 bytes is over the 10-byte limit"},
	{rel: "link.yaml", reason: "symlink not followed"},
	{rel: "inside-link.yaml", reason: "symlink not followed"},
	{rel: "out/shadow", reason: "symlink not followed"},
	{rel: "sublink/ok.yaml", reason: "symlink not followed"},
	{rel: "fifo.yaml", reason: "a named pipe (FIFO), not a regular file"},
	{rel: "sub", reason: "a directory, not a regular file"},
	{rel: "missing.yaml", reason: "no such file"},
	{rel: "../x", reason: "the path leaves the folder it is read from"},
	{rel: "sub/../../x", reason: "the path leaves the folder it is read from"},
}

func checkRead(t *testing.T, c readCase, data []byte, err error, start time.Time) {
	t.Helper()
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("%s: took %v", c.rel, d)
	}
	if c.reason == "" {
		if err != nil {
			t.Errorf("%s: %v", c.rel, err)
		} else if string(data) != c.want {
			t.Errorf("%s: read %q, want %q", c.rel, data, c.want)
		}
		return
	}
	if err == nil {
		t.Errorf("%s: read %q, want an error", c.rel, data)
		return
	}
	if got := Reason(err); got != c.reason {
		t.Errorf("%s: reason %q, want %q", c.rel, got, c.reason)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != c.rel {
		t.Errorf("%s: error %v does not name the file", c.rel, err)
	}
	if strings.Contains(err.Error(), "not-a-real-hash") {
		t.Errorf("%s: error quotes the content: %v", c.rel, err)
	}
}

// TestDirReadFile: below a folder, nothing but a regular file inside it is
// read — no symlink in any component (even one pointing inside), no FIFO
// (refused at once, not waited on), nothing over the cap, no way out.
func TestDirReadFile(t *testing.T) {
	dir, _ := hostile(t)
	d, err := OpenDir(dir)
	must(t, err)
	defer d.Close()
	for _, c := range readCases {
		start := time.Now()
		data, err := d.ReadFile(context.Background(), c.rel, 10)
		checkRead(t, c, data, err, start)
	}
}

// TestOpenWalk: the component-by-component open used where openat2 is
// missing refuses what openat2 refuses.
func TestOpenWalk(t *testing.T) {
	dir, _ := hostile(t)
	d, err := OpenDir(dir)
	must(t, err)
	defer d.Close()
	for _, c := range readCases {
		if strings.Contains(c.rel, "..") && strings.Count(c.rel, "/") > 1 {
			continue // openat2 resolves "sub/.."; the walk refuses any ".."
		}
		start := time.Now()
		data, err := readWithin(context.Background(), c.rel, 10, func() (*os.File, error) { return openWalk(d.fd, c.rel) })
		checkRead(t, c, data, err, start)
	}
}

// TestReadFile: a path the user named is read unless its last component is
// a symlink or it is not a regular file (/dev/zero, a FIFO).
func TestReadFile(t *testing.T) {
	dir, _ := hostile(t)
	for _, c := range []readCase{
		{rel: filepath.Join(dir, "ok.yaml"), want: "a: 1\n"},
		{rel: filepath.Join(dir, "sublink", "ok.yaml"), want: "b: 2\n"}, // folders the user typed are theirs
		{rel: filepath.Join(dir, "link.yaml"), reason: "symlink not followed"},
		{rel: filepath.Join(dir, "fifo.yaml"), reason: "a named pipe (FIFO), not a regular file"},
		{rel: "/dev/zero", reason: "a device, not a regular file"},
		{rel: filepath.Join(dir, "big.yaml"), reason: "11 bytes is over the 10-byte limit"},
	} {
		start := time.Now()
		data, err := ReadFile(context.Background(), c.rel, 10)
		checkRead(t, c, data, err, start)
	}
}

// TestReadDeadline: a read that makes no progress is given up after
// ReadTimeout; one that keeps making progress is not, however long it
// takes; a cancelled context ends it at once. What blocks is real: an open
// of a FIFO without O_NONBLOCK waits in the kernel for a writer, as an open
// or read on a mount that never answers does, where no deadline reaches.
func TestReadDeadline(t *testing.T) {
	old := ReadTimeout
	ReadTimeout = 150 * time.Millisecond
	defer func() { ReadTimeout = old }()

	fifo := filepath.Join(t.TempDir(), "stuck")
	must(t, syscall.Mkfifo(fifo, 0o644))
	blockingOpen := func() (*os.File, error) { return os.OpenFile(fifo, os.O_RDONLY, 0) }
	// Let the abandoned open finish when the test ends.
	defer func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	}()
	start := time.Now()
	_, err := readWithin(context.Background(), "stuck.yaml", 1<<20, blockingOpen)
	if err == nil || Reason(err) != ErrTimeout.Error() {
		t.Fatalf("stuck open: %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stuck open gave up after %v", d)
	}

	// A slow writer: a byte every 50 ms for 600 ms, four times the timeout.
	r, w, err := os.Pipe()
	must(t, err)
	go func() {
		for range 12 {
			time.Sleep(50 * time.Millisecond)
			w.Write([]byte("x"))
		}
		w.Close()
	}()
	data, err := within(context.Background(), "slow.yaml", func(p *atomic.Int64) ([]byte, error) { return readAll(r, 0, 1<<20, p) })
	if err != nil || len(data) != 12 {
		t.Errorf("slow read: %q, %v", data, err)
	}

	ReadTimeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start = time.Now()
	_, err = readWithin(ctx, "cancelled.yaml", 1<<20, blockingOpen)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled read: %v after %v", err, time.Since(start))
	}
}

// TestReadGrowingFile: a file whose stat size is under the cap but whose
// content is not (it grows, or reports no size, as proc files do) stops
// at the cap.
func TestReadGrowingFile(t *testing.T) {
	var big *TooLargeError
	_, err := ReadFile(context.Background(), "/proc/self/status", 10)
	if !errors.As(err, &big) || big.Size != -1 {
		t.Fatalf("/proc/self/status with a 10-byte cap: %v", err)
	}
	if data, err := ReadFile(context.Background(), "/proc/self/status", 1<<20); err != nil || !strings.Contains(string(data), "Name:") {
		t.Fatalf("/proc/self/status: %q, %v", data, err)
	}
}

// TestSwappedAfterListing: a config file swapped for a symlink or a FIFO
// between the walk that listed it and the read is refused, fast, with an
// errors[] entry; the secret it points to is never read.
func TestSwappedAfterListing(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "shadow")
	must(t, os.WriteFile(secret, []byte("services: {"+secretLine+"}\n"), 0o644))
	for _, n := range []string{"a", "b", "c"} {
		must(t, os.MkdirAll(filepath.Join(root, n), 0o755))
		must(t, os.WriteFile(filepath.Join(root, n, "compose.yaml"), []byte("services: {}\n"), 0o644))
	}
	cs := []Collector{yamlNamed("compose.yaml")}
	jobs, errs, _, err := walk(context.Background(), root, "", cs, nil)
	must(t, err)
	if len(jobs) != 3 || len(errs) != 0 {
		t.Fatalf("walk: %d jobs, errors %v", len(jobs), errs)
	}
	must(t, os.Remove(filepath.Join(root, "a", "compose.yaml")))
	must(t, os.Symlink(secret, filepath.Join(root, "a", "compose.yaml")))
	must(t, os.Remove(filepath.Join(root, "b", "compose.yaml")))
	must(t, syscall.Mkfifo(filepath.Join(root, "b", "compose.yaml"), 0o644))
	must(t, os.RemoveAll(filepath.Join(root, "c")))
	must(t, os.Symlink(outside, filepath.Join(root, "c")))
	must(t, os.WriteFile(filepath.Join(outside, "compose.yaml"), []byte(secretLine), 0o644))
	d, err := OpenDir(root)
	must(t, err)
	defer d.Close()
	start := time.Now()
	doc, got, _ := run(context.Background(), d, jobs, DefaultMaxFileSize, 2, false, false)
	for _, f := range doc.Files {
		t.Errorf("%s was read", f.Path)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	want := []model.Error{
		{File: "a/compose.yaml", Kind: "test", Message: "cannot read: symlink not followed"},
		{File: "b/compose.yaml", Kind: "test", Message: "cannot read: a named pipe (FIFO), not a regular file"},
		{File: "c/compose.yaml", Kind: "test", Message: "cannot read: symlink not followed"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// yamlNamed is a collector that records the files it is handed.
type yamlNamed string

func (y yamlNamed) Name() string        { return "test" }
func (y yamlNamed) Match(p string) bool { return filepath.Base(p) == string(y) }
func (y yamlNamed) Collect(_ context.Context, p string, data []byte, doc *model.Document) error {
	if strings.Contains(string(data), "not-a-real-hash") {
		return errors.New("read the secret")
	}
	return nil
}

// BenchmarkRead compares the safe read (one openat2, fstat, capped read, a
// deadline goroutine) with what the config walker did before (Lstat, then
// os.ReadFile) on 500 small files three folders deep.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	var rels []string
	for i := range 500 {
		rel := fmt.Sprintf("a/b%03d/c/compose.yaml", i)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(strings.Repeat("services: {}\n", 40)), 0o644); err != nil {
			b.Fatal(err)
		}
		rels = append(rels, rel)
	}
	d, err := OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	b.Run("safe", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rels {
				if _, err := d.ReadFile(ctx, r, DefaultMaxFileSize); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("lstat+readfile", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rels {
				p := filepath.Join(dir, r)
				if _, err := os.Lstat(p); err != nil {
					b.Fatal(err)
				}
				if _, err := os.ReadFile(p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
