package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// TestPartsJudgeAsWhole is the differential test of the evaluation in
// parts: a tree judged in parts of partFiles files (its facts moved into
// each part, the findings held compactly) gives the report, byte for byte,
// that one evaluation of the whole model gives, on the fixtures, a
// generated corpus and both in one tree.
func TestPartsJudgeAsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("judges three trees twice")
	}
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		t.Fatal(err)
	}
	gen := t.TempDir()
	if err := corpus.Generate(gen, 1500, 3); err != nil {
		t.Fatal(err)
	}
	mixed := t.TempDir()
	if err := corpus.Generate(filepath.Join(mixed, "generated"), 700, 5); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(mixed, "fixtures"), os.DirFS(filepath.Join("..", "fixtures"))); err != nil {
		t.Fatal(err)
	}
	// files at the root, which a part of its own holds
	if err := os.CopyFS(mixed, os.DirFS(filepath.Join("..", "fixtures", "scenarios", "devcontainer-dood"))); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join("..", "fixtures"), gen, mixed} {
		now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		files := 0
		judge := func(size int) string {
			t.Helper()
			col, err := Collect(ctx, Options{Path: dir, whole: true})
			if err != nil {
				t.Fatal(err)
			}
			files = len(col.Doc.Files)
			rep, err := eng.Judge(ctx, col, Options{Path: dir, Now: now, partFiles: size})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := (reports.JSON{}).Write(&b, rep); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		whole := judge(1 << 30)
		if strings.Count(whole, `"rule_id"`) < 100 {
			t.Fatalf("%s: only %d findings", dir, strings.Count(whole, `"rule_id"`))
		}
		// the parts a scan makes, and small ones: more cuts, between
		// the fixtures' directories too
		for _, size := range []int{partFiles, 16} {
			if files <= size {
				continue
			}
			if diff := cmp.Diff(strings.Split(whole, "\n"), strings.Split(judge(size), "\n")); diff != "" {
				t.Errorf("%s (%d files): judged in parts of %d files, the report differs from the whole model's (-whole +parts):\n%s", dir, files, size, diff)
			}
		}
	}
}
