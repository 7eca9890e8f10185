package ruledocs

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestDocsUpToDate fails when docs/rules is stale: run `go generate ./...`.
func TestDocsUpToDate(t *testing.T) {
	set, err := rules.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "docs", "rules")
	want := Render(set)
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	var extra []string
	for _, f := range files {
		if _, ok := want[filepath.Base(f)]; !ok {
			extra = append(extra, filepath.Base(f))
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("docs/rules has pages for no rule: %v (run go generate ./...)", extra)
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("docs/rules/%s missing (run go generate ./...)", name)
			continue
		}
		if d := cmp.Diff(body, string(got)); d != "" {
			t.Errorf("docs/rules/%s is stale (run go generate ./...) (-want +got):\n%s", name, d)
		}
	}
}
