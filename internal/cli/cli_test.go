package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	trivydb "github.com/aquasecurity/trivy-db/pkg/db"
	"github.com/aquasecurity/trivy-db/pkg/dbtest"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sandbox-audit/sandbox-audit/internal/pgtest"
	"github.com/sandbox-audit/sandbox-audit/internal/sarifcheck"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sandbox-audit": func() {
			os.Exit(Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the CLI scenarios in testdata/script against the real
// entry point: exit codes, stdout/stderr, files written.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("../../fixtures")
	if err != nil {
		t.Fatal(err)
	}
	trivyDB := fixtureTrivyDB(t, fixtures)
	// A PostgreSQL database for the fleet scripts' shared store.
	t.Cleanup(pgtest.Stop)
	pgStore := pgtest.DSN(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
			env.Setenv("TRIVY_DB", trivyDB)
			env.Setenv("PGSTORE", pgStore)
			// git in scripts: no user config, a fixed identity
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_AUTHOR_NAME", "test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N CMD ARGS...: run CMD and require exit code N; its
			// output feeds the stdout/stderr assertions that follow.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exitcode N CMD [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exitcode: %v", err)
				}
				cmd := exec.Command(args[1], args[2:]...)
				cmd.Dir = ts.MkAbs(".")
				cmd.Env = append(os.Environ(), "PATH="+ts.Getenv("PATH"), "HOME="+ts.Getenv("HOME"), "FIXTURES="+ts.Getenv("FIXTURES"), "NO_COLOR=1", "TRIVY_CACHE_DIR="+ts.Getenv("TRIVY_CACHE_DIR"), "DOCKER_HOST="+ts.Getenv("DOCKER_HOST"))
				// what a script sets for the fleet commands
				for _, k := range []string{"SANDBOX_AUDIT_STORE", "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS"} {
					if v := ts.Getenv(k); v != "" {
						cmd.Env = append(cmd.Env, k+"="+v)
					}
				}
				cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
				got := 0
				if err := cmd.Run(); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exitcode: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
				}
			},
			// sarifcheck FILE: the SARIF validates against the OASIS schema and GitHub's rules.
			"sarifcheck": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: sarifcheck FILE")
				}
				problems := sarifcheck.Validate([]byte(ts.ReadFile(args[0])))
				if neg {
					if len(problems) == 0 {
						ts.Fatalf("%s: valid SARIF, want problems", args[0])
					}
					return
				}
				if len(problems) > 0 {
					ts.Fatalf("%s: invalid SARIF:\n%s", args[0], strings.Join(problems, "\n"))
				}
			},
		},
	})
}

// fixtureTrivyDB builds a real trivy bolt database from the advisory
// fixtures with trivy-db's own loader, for the dependency scripts.
func fixtureTrivyDB(t *testing.T, fixtures string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixtures, "deps", "trivy-db", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("advisory fixtures: %v", err)
	}
	sort.Strings(files)
	dir := dbtest.InitDB(t, files)
	if err := trivydb.Close(); err != nil {
		t.Fatal(err)
	}
	meta := `{"Version":2,"NextUpdate":"2099-01-01T00:00:00Z","UpdatedAt":"2026-11-01T00:00:00Z","DownloadedAt":"2026-11-01T00:00:00Z"}`
	if err := os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
