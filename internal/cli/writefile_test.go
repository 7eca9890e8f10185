package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/reports"
)

type failingWriter struct{}

func (failingWriter) Write(w io.Writer, _ *reports.Report) error {
	io.WriteString(w, "half a report")
	return errors.New("disk full")
}

// TestWriteFile: -o replaces a regular file whole or not at all, keeps a
// symlink pointing where it did, creates missing folders, and writes
// straight into what is not a regular file.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	rep := &reports.Report{Verdict: "unknown"}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	out := filepath.Join(dir, "new", "sub", "report.json")
	if err := writeFile(out, reports.JSON{}, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(read(out), `"verdict": "unknown"`) {
		t.Errorf("report not written: %q", read(out))
	}

	if err := writeFile(out, failingWriter{}, rep); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v, want the writer's error", err)
	}
	if !strings.Contains(read(out), `"verdict": "unknown"`) {
		t.Errorf("a failed write damaged the previous report: %q", read(out))
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".sandbox-audit-report-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	rep.Verdict = "boundary"
	if err := writeFile(link, reports.JSON{}, rep); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", st.Mode(), err)
	}
	if !strings.Contains(read(out), `"verdict": "boundary"`) {
		t.Errorf("the link's target was not rewritten: %q", read(out))
	}

	if err := writeFile(os.DevNull, reports.JSON{}, rep); err != nil {
		t.Errorf("write to %s: %v", os.DevNull, err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s became a regular file", os.DevNull)
	}
}
