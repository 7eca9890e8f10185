package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/internal/audit"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// HelpBase is where rule docs are published (SARIF helpUri).
const HelpBase = "https://github.com/sandbox-audit/sandbox-audit/blob/main/docs/rules/"

type scanOptions struct {
	format        string
	output        string
	summary       string
	summaryFile   string
	failOn        string
	config        string
	ruleDirs      []string
	exclude       []string
	baseline      string
	writeBaseline string
	noColor       bool
}

func newScanCmd() *cobra.Command {
	o := &scanOptions{}
	cmd := &cobra.Command{
		Use:   "scan [PATH]",
		Short: "Audit the sandbox configuration under PATH",
		Long: `Audit the sandbox configuration found under PATH (default ".") and print the verdict,
the four properties and the findings.

` + exitHelp,
		Example: `  sandbox-audit scan .
  sandbox-audit scan --format sarif -o results.sarif --summary markdown --summary-file "$GITHUB_STEP_SUMMARY" .
  sandbox-audit scan --fail-on medium --config .sandbox-audit.yaml infra/`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return o.run(cmd, path)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.format, "format", "f", "table", "report format: table, json, sarif, markdown")
	f.StringVarP(&o.output, "output", "o", "", "write the report to FILE instead of stdout")
	f.StringVar(&o.summary, "summary", "", "also write a summary: table or markdown (default: table on stderr when -o is set), none")
	f.StringVar(&o.summaryFile, "summary-file", "", "append the summary to FILE (e.g. $GITHUB_STEP_SUMMARY) instead of stderr")
	f.StringVar(&o.failOn, "fail-on", "", "fail the gate on findings at or above this severity: critical, high, medium, low, info, none (default high, or fail_on from the policy file)")
	f.StringVar(&o.config, "config", "", "policy file (default: .sandbox-audit.yaml at PATH when present)")
	f.StringArrayVar(&o.ruleDirs, "rules", nil, "directory of custom Rego rules (repeatable)")
	f.StringArrayVar(&o.exclude, "exclude", nil, "skip paths matching this glob, relative to PATH (repeatable)")
	f.StringVar(&o.baseline, "baseline", "", "only findings not in this baseline file fail the gate")
	f.StringVar(&o.writeBaseline, "write-baseline", "", "write the current findings to this baseline file")
	f.BoolVar(&o.noColor, "no-color", false, "disable colors (also NO_COLOR)")
	return cmd
}

func (o *scanOptions) validate() error {
	if _, err := reports.New(o.format); err != nil {
		return usageError("%v", err)
	}
	if o.summary != "" && o.summary != "none" && !slices.Contains([]string{"table", "markdown", "md"}, o.summary) {
		return usageError("--summary %q is not one of table, markdown, none", o.summary)
	}
	return severityFlag(o.failOn)
}

func (o *scanOptions) run(cmd *cobra.Command, path string) error {
	if err := o.validate(); err != nil {
		return err
	}
	ctx := cmd.Context()
	if _, err := os.Stat(path); err != nil {
		return usageError("cannot read target %s: %v", path, reason(err))
	}
	cfg, err := audit.ConfigFor(o.config, path)
	if err != nil {
		return err
	}
	eng, err := audit.NewEngine(ctx, o.ruleDirs, cfg)
	if err != nil {
		return err
	}
	rep, err := eng.Run(ctx, audit.Options{
		Path: path, Config: cfg, FailOn: o.failOn, Exclude: o.exclude,
		Baseline: o.baseline, WriteBaseline: o.writeBaseline,
		Version: version.String(), Now: time.Now(), HelpBase: HelpBase,
	})
	if err != nil {
		return err
	}
	if err := o.emit(cmd, rep); err != nil {
		return err
	}
	if !rep.Gate.Passed {
		return errGate
	}
	return nil
}

// emit writes the report and the summary. The report goes to -o or stdout;
// the summary to --summary-file or stderr, so SARIF and a readable gate come
// out of one run.
func (o *scanOptions) emit(cmd *cobra.Command, rep *reports.Report) error {
	w, _ := reports.New(o.format)
	if o.output != "" {
		var buf bytes.Buffer
		if err := w.Write(&buf, rep); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(o.output), 0o755); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		if err := os.WriteFile(o.output, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else {
		rep.Color = o.format == "table" && colorOK(cmd.OutOrStdout(), o.noColor)
		if err := w.Write(cmd.OutOrStdout(), rep); err != nil {
			return err
		}
	}
	summary := o.summary
	if summary == "" && o.output != "" {
		summary = "table"
	}
	if summary == "" || summary == "none" {
		return nil
	}
	sw, _ := reports.New(summary)
	if o.summaryFile != "" {
		f, err := os.OpenFile(o.summaryFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("write summary: %w", err)
		}
		rep.Color = false
		if err := sw.Write(f, rep); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	rep.Color = summary == "table" && colorOK(cmd.ErrOrStderr(), o.noColor)
	return sw.Write(cmd.ErrOrStderr(), rep)
}

// colorOK: colors only for a terminal, and never when NO_COLOR is set.
func colorOK(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

func reason(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
