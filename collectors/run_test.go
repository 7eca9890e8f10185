package collectors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// numbered is a collector that gives each file one workload named by its
// content, and fails on a file whose content starts with "bad".
type numbered struct{}

func (numbered) Name() string        { return "numbered" }
func (numbered) Match(p string) bool { return strings.HasSuffix(p, ".n") }
func (numbered) Collect(_ context.Context, p string, data []byte, doc *model.Document) error {
	if strings.HasPrefix(string(data), "bad") {
		return errors.New("bad file")
	}
	doc.Workloads = append(doc.Workloads, model.Workload{Name: string(data), Loc: model.Loc{File: p, Line: 1}})
	return nil
}

// TestRunMergesInJobOrder: documents read on several workers and merged a
// block at a time come out in the order of the jobs, as do the errors,
// across block boundaries, and a cancelled scan returns what it read.
func TestRunMergesInJobOrder(t *testing.T) {
	root := t.TempDir()
	n := 2*mergeFiles + 37
	var jobs []job
	for i := range n {
		rel := fmt.Sprintf("d%02d/f%05d.n", i%7, i)
		body := fmt.Sprint(i)
		if i%100 == 3 {
			body = "bad"
		}
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{path: rel, c: numbered{}})
	}
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	doc, errs, nothing := run(context.Background(), d, jobs, DefaultMaxFileSize, 3, false, false)
	if nothing {
		t.Error("nothing set for a directory")
	}
	var wantFiles, wantErrs []string
	k := 0
	for i, j := range jobs {
		if i%100 == 3 {
			wantErrs = append(wantErrs, j.path)
			continue
		}
		wantFiles = append(wantFiles, j.path)
		if w := doc.Workloads[k]; w.File != j.path || w.Name != fmt.Sprint(i) {
			t.Fatalf("workload %d is %s %s, want %s %d", k, w.File, w.Name, j.path, i)
		}
		k++
	}
	if k != len(doc.Workloads) {
		t.Fatalf("%d workloads, want %d", len(doc.Workloads), k)
	}
	var gotFiles, gotErrs []string
	for _, f := range doc.Files {
		gotFiles = append(gotFiles, f.Path)
	}
	for _, e := range errs {
		gotErrs = append(gotErrs, e.File)
	}
	if strings.Join(gotFiles, " ") != strings.Join(wantFiles, " ") {
		t.Errorf("files out of order:\n%v\nwant\n%v", gotFiles, wantFiles)
	}
	if strings.Join(gotErrs, " ") != strings.Join(wantErrs, " ") {
		t.Errorf("errors %v, want %v", gotErrs, wantErrs)
	}

	// a single file target that yields nothing is said to
	if _, _, nothing := run(context.Background(), d, jobs[3:4], DefaultMaxFileSize, 1, false, true); nothing {
		t.Error("a failed file is not 'nothing to audit'")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc, _, _ = run(ctx, d, jobs, DefaultMaxFileSize, 2, false, false)
	if len(doc.Files) == len(jobs) {
		t.Error("a cancelled scan read every file")
	}
}

// TestUnparsedFileSecrets: a file its collector cannot parse is still
// scanned for literal credentials, at their lines, once each; a file that
// parses is left to its collector.
func TestUnparsedFileSecrets(t *testing.T) {
	root := t.TempDir()
	pat := "ghp_" + strings.Repeat("aB3dE6gH9k", 3) + "Lm4Rq7"
	files := map[string]string{
		"broken.n": "bad\n{\"env\": {\"GITHUB_TOKEN\": \"" + pat + "\"}}\n",
		"clean.n":  "fine " + pat,
	}
	var jobs []job
	for rel, body := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{path: rel, c: numbered{}})
	}
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	doc, errs, _ := run(context.Background(), d, jobs, DefaultMaxFileSize, 1, false, false)
	if len(doc.Credentials) != 1 {
		t.Fatalf("credentials = %+v, want one, in broken.n", doc.Credentials)
	}
	c := doc.Credentials[0]
	if c.File != "broken.n" || c.Line != 2 || c.Kind != "github-pat-classic" || !c.ReadableByAgent || !strings.Contains(c.Context, "could not be parsed") {
		t.Errorf("credential = %+v", c)
	}
	if len(errs) != 1 || errs[0].File != "broken.n" || !errs[0].Partial {
		t.Errorf("errors = %+v, want broken.n, partial (its credential was read)", errs)
	}
}
