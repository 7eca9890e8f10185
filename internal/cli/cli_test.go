package cli

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

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
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("FIXTURES", fixtures)
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
				cmd.Env = append(os.Environ(), "PATH="+ts.Getenv("PATH"), "HOME="+ts.Getenv("HOME"), "FIXTURES="+ts.Getenv("FIXTURES"), "NO_COLOR=1")
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
