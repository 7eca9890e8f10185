package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/sarifcheck"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run executes the CLI in-process and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// normalize removes what varies between machines and builds.
func normalize(s, root string) string {
	s = strings.ReplaceAll(s, root, "$FIXTURES")
	s = strings.ReplaceAll(s, `"version": "dev"`, `"version": "VERSION"`)
	return s
}

// TestGoldenScenarios: the whole-sandbox scenarios give the same JSON and
// SARIF as the reviewed golden files (go test ./internal/cli -update).
func TestGoldenScenarios(t *testing.T) {
	root, err := filepath.Abs("../../fixtures")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "scenarios", "*"))
	if err != nil || len(dirs) < 3 {
		t.Fatalf("want at least 3 scenarios, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		for _, format := range []string{"json", "sarif"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				out, stderr, code := run(t, "scan", "--format", format, "--fail-on", "none", dir)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if format == "sarif" {
					if p := sarifcheck.Validate([]byte(out)); len(p) > 0 {
						t.Fatalf("invalid SARIF:\n%s", strings.Join(p, "\n"))
					}
				}
				got := normalize(out, root)
				golden := filepath.Join("testdata", "golden", name+"."+format)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/cli -update)", err)
				}
				if d := cmp.Diff(string(want), got); d != "" {
					t.Errorf("%s differs from golden (-want +got):\n%s", golden, d)
				}
			})
		}
	}
}

// TestNoSecretInAnyOutput scans the tree of planted secrets and greps every
// format for every planted value and every 12-character piece of it.
func TestNoSecretInAnyOutput(t *testing.T) {
	src, err := filepath.Abs("../../fixtures/planted-secrets")
	if err != nil {
		t.Fatal(err)
	}
	// git cannot commit a .git directory: the fixture keeps the repository
	// config as dot-git/config, and the scan sees it at .git/config.
	root := filepath.Join(t.TempDir(), "planted")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "dot-git"), filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "SECRETS.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			secrets = append(secrets, l)
		}
	}
	if len(secrets) < 50 {
		t.Fatalf("want ≥ 50 planted secrets, have %d", len(secrets))
	}
	found := 0
	for _, format := range []string{"table", "json", "sarif", "markdown"} {
		out, stderr, code := run(t, "scan", "--format", format, "--fail-on", "none", root)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		all := strings.ReplaceAll(out+stderr, root, "$ROOT")
		for _, s := range secrets {
			for i := 0; i+12 <= len(s); i++ {
				if piece := s[i : i+12]; strings.Contains(all, piece) {
					t.Errorf("%s output contains %q, a piece of a planted secret", format, piece)
					break
				}
			}
		}
		if format == "json" {
			found = strings.Count(out, `"rule_id": "literal-secret-in-config"`)
		}
	}
	// The secrets must also be found, not merely hidden.
	if found < len(secrets)*9/10 {
		t.Errorf("literal-secret-in-config fired %d times for %d planted secrets", found, len(secrets))
	}
}
