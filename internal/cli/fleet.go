package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
)

// defaultStore is the history store when --store is not given.
const defaultStore = "sandbox-audit-fleet.db"

func newFleetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Audit many targets in one run and keep the history",
		Long: `Audit every target of an inventory with one engine, store each result (verdict, the four
properties, findings; never a secret value) in a SQLite file, and report the fleet's posture
and what changed since the run before.

An inventory (YAML):

  version: 1
  targets:
    - path: checkouts/*            # a directory, or a glob of directories
    - name: platform
      path: ../platform
      policy: policies/strict.yaml # else each target's own .sandbox-audit.yaml
    - git: https://github.com/org/agent-infra.git
      ref: main                    # branch, tag or commit (default: the remote's HEAD)
    - docker: agent-7              # a container, through the Docker Engine API
    - github: my-org               # every repository of the organisation, through GitHub's API

A git target is fetched shallow into --git-cache with your git setup's credentials
(credential helper, GIT_ASKPASS, ssh keys; a URL holding a password is refused) and checked
out with no configuration of yours, so the fetched tree cannot run a filter driver.`,
	}
	cmd.AddCommand(newFleetScanCmd(), newFleetIngestCmd(), newFleetReportCmd(), newFleetDiffCmd())
	return cmd
}

// storeFlag is --store, defaulting to $SANDBOX_AUDIT_STORE (where a
// PostgreSQL URL with its password belongs: not in a process's arguments)
// and then to a SQLite file in the working directory.
func storeFlag(f *pflag.FlagSet, store *string) {
	def := defaultStore
	if env := os.Getenv("SANDBOX_AUDIT_STORE"); env != "" {
		def = env
	}
	*store = def
	f.StringVar(store, "store", def, "the history store: a SQLite file (or sqlite://FILE), or postgres://…")
	f.Lookup("store").DefValue = "$SANDBOX_AUDIT_STORE or " + defaultStore
}

// parseShard reads --shard i/n, else a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX (0-based) and JOB_COMPLETIONS.
func parseShard(flag string) (i, n int, err error) {
	if flag == "" {
		idx, cnt := os.Getenv("JOB_COMPLETION_INDEX"), os.Getenv("JOB_COMPLETIONS")
		if idx == "" || cnt == "" {
			return 0, 0, nil
		}
		x, err1 := strconv.Atoi(idx)
		n, err2 := strconv.Atoi(cnt)
		if err1 != nil || err2 != nil || x < 0 || n < 1 || x >= n {
			return 0, 0, usageError("JOB_COMPLETION_INDEX=%q and JOB_COMPLETIONS=%q do not name a shard", idx, cnt)
		}
		return x + 1, n, nil
	}
	a, b, ok := strings.Cut(flag, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usageError("--shard %q: give I/N with 1 <= I <= N, e.g. 2/7", flag)
	}
	return i, n, nil
}

func newFleetScanCmd() *cobra.Command {
	var inventory, store, shard, runName, gitCache, githubURL string
	var resume bool
	var ghCache ghCacheFlags
	var concurrency int
	var timeout time.Duration
	var ruleDirs []string
	cmd := &cobra.Command{
		Use:   "scan --inventory FILE [--store FILE]",
		Short: "Audit every target of the inventory and store the results",
		Long: `Audit every target of the inventory and store the results. A target that cannot be
audited is stored with its error and the run goes on; Ctrl-C or SIGTERM keeps every
finished target and marks the run incomplete.

A run can be split across machines: --shard I/N (or a Kubernetes Indexed Job's
JOB_COMPLETION_INDEX and JOB_COMPLETIONS) audits the targets whose id hashes to shard I,
and every shard given the same --run-name writes one run, in one PostgreSQL store. The run
is complete once every target is stored. A run that was interrupted or killed is completed
by --resume (the newest incomplete run) or by the same --run-name: only the targets it
lacks are audited.

Exit status, as scan's for each target:
  0  every target stored, each audited whole (a failed gate is no exit status here:
     fleet report --fail-on-regression gates on what got worse)
  2  the run could not start or was interrupted; a target could not be audited (its
     error is in the store and in fleet report); or a target's policy is strict
     (strict: true) and its audit could not read everything (its gate is incomplete:
     scan exits 2 on it; fleet report lists what was not read)`,
		Example: `  sandbox-audit fleet scan --inventory fleet.yaml --store history.db
  sandbox-audit fleet report --store history.db --fail-on-regression
  SANDBOX_AUDIT_STORE=postgres://audit@db/fleet sandbox-audit fleet scan --inventory fleet.yaml --run-name nightly-2026-12-02 --shard 2/7`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if inventory == "" {
				return usageError("fleet scan needs --inventory FILE")
			}
			if concurrency < 0 {
				return usageError("--concurrency must be 1 or more")
			}
			si, sn, err := parseShard(shard)
			if err != nil {
				return err
			}
			if resume && runName != "" {
				return usageError("--resume and --run-name: give one (the same --run-name also completes its run)")
			}
			if sn > 1 && runName == "" && !resume {
				return usageError("--shard %d/%d needs --run-name NAME, the same for every shard, so the shards write one run", si, sn)
			}
			if resume && sn > 1 {
				return usageError("--resume joins the newest incomplete run; shards name theirs with --run-name")
			}
			if err := ghCache.validate(); err != nil {
				return err
			}
			inv, err := fleet.LoadInventory(inventory)
			if err != nil {
				return fmt.Errorf("%w: %v", audit.ErrUsage, err)
			}
			targets, err := inv.Expand()
			if err != nil {
				return fmt.Errorf("%w: %v", audit.ErrUsage, err)
			}
			ctx := cmd.Context()
			st, err := fleet.OpenStore(ctx, store)
			if err != nil {
				return err
			}
			defer st.Close()
			opt := fleet.Options{Concurrency: concurrency, Timeout: timeout, RuleDirs: ruleDirs, Version: version.String(),
				Run: fleet.RunSpec{Name: runName, Resume: resume, Shards: sn}, Shard: si, GitCache: gitCache,
				GitHub: github.Options{APIURL: githubURL, Token: github.Token()}}
			if opt.GitHub.Cache, err = ghCache.open(); err != nil {
				return err
			}
			if opt.GitCache == "" {
				dir, err := os.UserCacheDir()
				if err != nil {
					return usageError("no cache directory for git targets (%v): give --git-cache DIR", err)
				}
				opt.GitCache = filepath.Join(dir, "sandbox-audit", "git")
			}
			errOut := cmd.ErrOrStderr()
			if f, ok := errOut.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
				opt.Progress = func(done, total int, t fleet.Target, err error) {
					fmt.Fprintf(errOut, "\r%d/%d %-40.40s", done, total, t.ID)
					if done == total {
						fmt.Fprintln(errOut)
					}
				}
			}
			sum, err := fleet.Scan(ctx, targets, st, opt)
			if errors.Is(err, fleet.ErrNoRun) || errors.Is(err, fleet.ErrRunMismatch) {
				return usageError("%v", err)
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "fleet run %d", sum.Run)
			if sn > 1 {
				fmt.Fprintf(out, " shard %d/%d", si, sn)
			}
			fmt.Fprintf(out, ": %d targets stored in %s", sum.Stored, fleet.RedactStore(store))
			if sum.Skipped > 0 {
				fmt.Fprintf(out, " (%d already stored)", sum.Skipped)
			}
			if sum.Failed > 0 {
				fmt.Fprintf(out, ", %d could not be audited (see fleet report)", sum.Failed)
			}
			if sum.Incomplete > 0 {
				fmt.Fprintf(out, ", %d not read whole under strict (see fleet report)", sum.Incomplete)
			}
			switch {
			case !sum.RunComplete && sn > 1:
				fmt.Fprint(out, "; the run awaits its other shards")
			case !sum.RunComplete:
				fmt.Fprint(out, "; the run is incomplete")
			}
			fmt.Fprintln(out)
			if sum.Failed > 0 {
				return fmt.Errorf("%d of %d targets could not be audited", sum.Failed, sum.Targets)
			}
			if sum.Incomplete > 0 {
				return fmt.Errorf("strict: %d of %d targets could not be audited whole", sum.Incomplete, sum.Targets)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&inventory, "inventory", "", "the inventory file (YAML: version: 1, targets:)")
	storeFlag(f, &store)
	f.StringVar(&runName, "run-name", "", "join (or start) the run of this name: every shard of one run gives the same")
	f.BoolVar(&resume, "resume", false, "complete the newest incomplete run: audit only the targets it lacks")
	f.StringVar(&gitCache, "git-cache", "", "where git targets are fetched and kept between runs (default: the user's cache directory/sandbox-audit/git)")
	f.StringVar(&githubURL, "github-url", "", "GitHub Enterprise Server's API URL (https://HOST/api/v3/) for github: targets (token from $GITHUB_TOKEN or $GH_TOKEN)")
	ghCache.add(f)
	f.StringVar(&shard, "shard", "", "audit shard I of N (I/N; default: JOB_COMPLETION_INDEX+1 / JOB_COMPLETIONS when set)")
	f.IntVar(&concurrency, "concurrency", 0, "targets audited at once (default: one per core)")
	f.DurationVar(&timeout, "timeout", 10*time.Minute, "time limit for one target (0: none)")
	f.StringArrayVar(&ruleDirs, "rules", nil, "a directory of your own Rego rules, for every target (repeatable)")
	return cmd
}

func newFleetIngestCmd() *cobra.Command {
	var store, runName string
	cmd := &cobra.Command{
		Use:   "ingest FILE... [--store FILE] [--run-name NAME]",
		Short: "Store JSON reports that sandboxes wrote of themselves (scan --live -f json) as one run",
		Long: `Store the JSON reports that sandboxes produced of themselves (sandbox-audit scan --live
-f json, run inside each) as one fleet run: one target per file, named by the file name
without .json. A file that is not such a report is stored with its error and the others go
on. The results are marked as ingested, and shown as self-reported: a sandbox's report of
itself is only as trustworthy as the sandbox, since an agent that controls it can write
its own. So its verdict is not taken as written: it is the one the scoring policy gives
its properties and findings, and at best unknown when it lists inputs it could not read
(errors[]) or its gate is incomplete. A result now self-reported where the run compared
with audited it is worse in fleet report: a sandbox's word never clears an audit's alarm.

Exit status: 0 every file stored as a report, each read whole; 2 a file is not one (its
error is in the store and in fleet report), a report's strict gate is incomplete (as scan
exits 2 on it), or the store cannot be written.`,
		Example: `  # inside each sandbox
  sandbox-audit scan --live -f json -o /reports/$(hostname).json
  # then, where the reports were collected
  sandbox-audit fleet ingest --store history.db /reports/*.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			st, err := fleet.OpenStore(cmd.Context(), store)
			if err != nil {
				return err
			}
			defer st.Close()
			sum, err := fleet.Ingest(cmd.Context(), files, st, fleet.Options{Run: fleet.RunSpec{Name: runName}})
			if errors.Is(err, fleet.ErrInventory) || errors.Is(err, fleet.ErrRunMismatch) {
				return usageError("%v", err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "fleet run %d: %d reports stored in %s", sum.Run, sum.Stored, fleet.RedactStore(store))
			if sum.Skipped > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), " (%d already stored)", sum.Skipped)
			}
			if sum.Failed > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), ", %d are not reports (see fleet report)", sum.Failed)
			}
			if sum.Incomplete > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), ", %d not read whole under strict (see fleet report)", sum.Incomplete)
			}
			fmt.Fprintln(cmd.OutOrStdout())
			if sum.Failed > 0 {
				return fmt.Errorf("%d of %d files are not sandbox-audit JSON reports", sum.Failed, sum.Targets)
			}
			if sum.Incomplete > 0 {
				return fmt.Errorf("strict: %d of %d reports say their audit could not read everything", sum.Incomplete, sum.Targets)
			}
			return nil
		},
	}
	storeFlag(cmd.Flags(), &store)
	cmd.Flags().StringVar(&runName, "run-name", "", "join (or start) the run of this name; files already stored in it are skipped")
	return cmd
}

func newFleetReportCmd() *cobra.Command {
	var store, format string
	var run, against int64
	var failOnRegression bool
	cmd := &cobra.Command{
		Use:   "report [--store FILE] [--run ID] [--against ID]",
		Short: "Report a stored run and what changed since the run before",
		Long: `Report a stored fleet run (default: the latest): targets per verdict, pass rate per
property, worst targets, most common rules, and against the run before it (or --against
ID) each target's new and fixed findings and verdict changes. -f html writes one
self-contained page (inline CSS and SVG charts of the verdicts and of each property's pass
rate over the last 14 runs; no JavaScript): fleet report -f html > fleet.html

Results a sandbox wrote of itself (fleet ingest) are marked self-reported wherever a
verdict is shown; a change between an audited and a self-reported result is marked, and
none of its findings counts as fixed. Targets whose audit could not read everything are
listed with what was not read (-f json: every entry).

Exit status: 0; 1 with --fail-on-regression when a target got worse (a new finding, a
worse verdict, a target now missing from the run or failing to audit, a strict target
whose gate is now incomplete, a result now self-reported where it was audited); 2 when the
store or run cannot be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			write := map[string]func(*fleet.Report, io.Writer) error{
				"table": (*fleet.Report).WriteTable, "json": (*fleet.Report).WriteJSON,
				"markdown": (*fleet.Report).WriteMarkdown, "html": (*fleet.Report).WriteHTML,
				"sarif": (*fleet.Report).WriteSARIF,
			}[format]
			if write == nil {
				return usageError("--format must be table, json, markdown, html or sarif")
			}
			if err := fleet.CheckStore(store); err != nil {
				return usageError("%v", err)
			}
			if !strings.Contains(store, "://") || strings.HasPrefix(store, "sqlite://") {
				if _, err := os.Stat(strings.TrimPrefix(store, "sqlite://")); err != nil {
					return usageError("no store at %s (run fleet scan first)", fleet.RedactStore(store))
				}
			}
			ctx := cmd.Context()
			st, err := fleet.OpenStore(ctx, store)
			if err != nil {
				return err
			}
			defer st.Close()
			rep, err := fleet.Build(ctx, st, run, against)
			if errors.Is(err, fleet.ErrNoRun) {
				return usageError("%v", err)
			}
			if err != nil {
				return err
			}
			rep.Version = version.String()
			if err := write(rep, cmd.OutOrStdout()); err != nil {
				return err
			}
			if failOnRegression && rep.Regressed() {
				return errGate
			}
			return nil
		},
	}
	f := cmd.Flags()
	storeFlag(f, &store)
	f.StringVarP(&format, "format", "f", "table", "report format: table, json, markdown, html (one self-contained page), sarif (one run per target)")
	f.Int64Var(&run, "run", 0, "the run to report (default: the latest)")
	f.Int64Var(&against, "against", 0, "the run to compare with (default: the one before)")
	f.BoolVar(&failOnRegression, "fail-on-regression", false, "exit 1 when a target got worse than in the run compared with")
	return cmd
}

func newFleetDiffCmd() *cobra.Command {
	rep := newFleetReportCmd()
	cmd := &cobra.Command{
		Use:   "diff RUN_A RUN_B [--store FILE]",
		Short: "What changed from run A to run B (fleet report --run B --against A)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if _, err := strconv.ParseInt(a, 10, 64); err != nil {
					return usageError("run ids are numbers (fleet report lists the runs): %q", a)
				}
			}
			_ = rep.Flags().Set("against", args[0])
			_ = rep.Flags().Set("run", args[1])
			return rep.RunE(cmd, nil)
		},
	}
	cmd.Flags().AddFlagSet(rep.Flags())
	return cmd
}
