package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

func newRulesTestCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "test DIR",
		Short: "Run the _test.rego files of a custom rule directory against its rules",
		Long: `Run the _test.rego files in DIR against the rules in DIR (and the built-in
library data.lib.sa), as opa test would. Exits 1 when a test fails, 2 when the rules
cannot be loaded or compiled.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			set, err := rules.LoadLibrary()
			if err != nil {
				return err
			}
			if err := set.AddDir(args[0]); err != nil {
				return err
			}
			if len(set.Tests) == 0 {
				return usageError("no _test.rego files in %s", args[0])
			}
			res, err := rules.Test(cmd.Context(), set)
			if err != nil {
				return err
			}
			return printTests(cmd.OutOrStdout(), res)
		},
	}
}

func printTests(w io.Writer, res []rules.TestResult) error {
	pass, fail := 0, 0
	for _, r := range res {
		status := "PASS"
		if !r.Pass {
			status = "FAIL"
			fail++
		} else {
			pass++
		}
		line := fmt.Sprintf("%s %s:%d %s.%s", status, r.File, r.Line, r.Package, r.Name)
		if r.Err != nil {
			line += ": " + r.Err.Error()
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", pass, fail)
	if fail > 0 {
		return errGate
	}
	return nil
}

func renderRules(w io.Writer, rows [][]string) error {
	return reports.RenderTable(w, []string{"Rule", "Property", "Severity", "Title"}, rows)
}
