package live

import (
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixtureNow is the clock of every fixture run; fixture files are dated
// two hours before it, i.e. they came with the image unless the
// environment is older than that.
var fixtureNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// copyFixture copies fixtures/live/<name> to a temp root and dates every
// file, so results do not depend on when the repository was checked out
// (and so a test may write a canary without touching the repository). Git
// cannot commit a .git directory, so fixtures keep them as dot-git.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "fixtures", "live", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, dotGit(rel))
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, out)
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy fixture %s: %v", name, err)
	}
	old := fixtureNow.Add(-2 * time.Hour)
	_ = filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink == 0 {
			_ = os.Chtimes(p, old, old)
		}
		return nil
	})
	return dst
}

func fixtureOptions(root string, task time.Time) Options {
	return Options{Root: root, TaskStarted: task, Now: func() time.Time { return fixtureNow }}
}

// golden is what a fixture's golden file holds.
type golden struct {
	Live        *model.Live        `json:"live"`
	Credentials []model.Credential `json:"credentials"`
	Errors      []model.Error      `json:"errors"`
}

func renderGolden(t *testing.T, root string, l *model.Live, creds []model.Credential, errs []model.Error) string {
	t.Helper()
	b, err := json.MarshalIndent(golden{l, creds, errs}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), root, "<root>") + "\n"
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s golden mismatch (-want +got):\n%s", name, d)
	}
}

func TestFixtures(t *testing.T) {
	for _, tc := range fixtureCases() {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t, tc.name)
			l, creds, errs := Collect(context.Background(), fixtureOptions(root, tc.task))
			iso := l.Isolation
			if iso.Kind != tc.kind || iso.Runtime != tc.runtime || iso.Confidence != tc.confidence {
				t.Errorf("isolation = %s/%s/%s, want %s/%s/%s (signals %q)", iso.Kind, iso.Runtime, iso.Confidence,
					tc.kind, tc.runtime, tc.confidence, iso.Signals)
			}
			if len(iso.Signals) < 2 {
				t.Errorf("isolation decided from %d signal(s): %q", len(iso.Signals), iso.Signals)
			}
			for _, u := range l.Unavailable {
				if !tc.allowUnavailable[u.Check] {
					t.Errorf("unexpected unavailable: %+v", u)
				}
			}
			if len(errs) != 0 {
				t.Errorf("errors: %+v", errs)
			}
			tc.check(t, l, creds)
			checkGolden(t, tc.name+".golden.json", renderGolden(t, root, l, creds, errs))
		})
	}
}

// credNames lists live credentials as "source name kind".
func credNames(l *model.Live) []string {
	var out []string
	for _, c := range l.Credentials {
		out = append(out, c.Source+" "+c.Name+" "+c.Kind)
	}
	return out
}

func findCred(l *model.Live, nameContains string) *model.LiveCred {
	for i, c := range l.Credentials {
		if strings.Contains(c.Name, nameContains) {
			return &l.Credentials[i]
		}
	}
	return nil
}

func wantMount(t *testing.T, ms []model.LiveMount, target, why string) {
	t.Helper()
	for _, m := range ms {
		if m.Target == target {
			for _, w := range m.Why {
				if w == why {
					return
				}
			}
			t.Errorf("mount %s: why %q, want %q", target, m.Why, why)
			return
		}
	}
	t.Errorf("no mount %s (%s) in %+v", target, why, ms)
}

// dotGit renames dot-git path elements to .git.
func dotGit(rel string) string {
	parts := strings.Split(rel, string(filepath.Separator))
	for i, p := range parts {
		if p == "dot-git" {
			parts[i] = ".git"
		}
	}
	return filepath.Join(parts...)
}
