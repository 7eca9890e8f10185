package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/deps"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
)

type depsOptions struct {
	scan scanOptions
	base string
	head string
}

func newDepsCmd() *cobra.Command {
	o := &depsOptions{}
	cmd := &cobra.Command{
		Use:   "deps --base REF [--head REF] [PATH]",
		Short: "Report what a change did to the project's dependencies",
		Long: `Compare the dependency manifests and lockfiles of two git revisions (or a revision and
the work tree) under PATH (default "."): packages added, removed, upgraded and downgraded,
vulnerable versions (trivy's database, read from --db or trivy's cache; never downloaded),
install scripts, packages from outside a registry, registry host changes, manifests changed
without their lockfile, widened version ranges, removed lockfiles.

Dependency findings count for the gate (--fail-on) but not for the four properties.

` + exitHelp,
		Example: `  sandbox-audit deps --base origin/main
  sandbox-audit deps --base main --head feature --db ~/.cache/trivy -f sarif -o deps.sarif`,
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
	f.StringVar(&o.base, "base", "", "the revision the change is measured from (required)")
	f.StringVar(&o.head, "head", "", "the revision holding the change (default: the work tree, uncommitted files included)")
	f.StringVar(&o.scan.db, "db", "", "trivy's database directory (default: trivy's cache, $TRIVY_CACHE_DIR or ~/.cache/trivy); never downloaded")
	f.StringVarP(&o.scan.format, "format", "f", "table", "report format: table, json, sarif, markdown")
	f.StringVarP(&o.scan.output, "output", "o", "", "write the report to FILE instead of stdout")
	f.StringVar(&o.scan.summary, "summary", "", "also write a summary: table or markdown (default: table on stderr when -o is set), none")
	f.StringVar(&o.scan.summaryFile, "summary-file", "", "append the summary to FILE instead of stderr")
	f.StringVar(&o.scan.failOn, "fail-on", "", "fail the gate on findings at or above this severity (default high)")
	f.StringVar(&o.scan.config, "config", "", "policy file (default: .sandbox-audit.yaml at PATH when present)")
	f.BoolVar(&o.scan.noColor, "no-color", false, "disable colors (also NO_COLOR)")
	_ = cmd.MarkFlagRequired("base")
	return cmd
}

func (o *depsOptions) run(cmd *cobra.Command, path string) error {
	o.scan.probeTimeout = time.Second // unused; keeps validate's live checks quiet
	o.scan.root = "/"
	o.scan.diffBase = o.base
	if err := o.scan.validate(); err != nil {
		return err
	}
	if err := checkTarget(path); err != nil {
		return err
	}
	cfg, err := audit.ConfigFor(o.scan.config, path)
	if err != nil {
		return err
	}
	rep, err := audit.Audit(cmd.Context(), audit.Options{
		Deps:   &deps.Options{Repo: path, Base: o.base, Head: o.head, DBDir: o.scan.db},
		Config: cfg, FailOn: o.scan.failOn,
		Version: version.String(), Now: time.Now(), HelpBase: HelpBase,
	})
	if err != nil {
		return err
	}
	o.scan.depsOnly = true
	if err := o.scan.emit(cmd, rep); err != nil {
		return err
	}
	if rep.Gate.Incomplete {
		return incomplete(rep.Errors)
	}
	if !rep.Gate.Passed {
		return errGate
	}
	return nil
}
