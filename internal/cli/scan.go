package cli

import (
	"bufio"
	"fmt"
	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/deps"
	"github.com/sandbox-audit/sandbox-audit/collectors/live"
	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
	"github.com/sandbox-audit/sandbox-audit/model"
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
	strict        bool
	ruleTimeout   time.Duration

	live          bool
	root          string
	probe         bool
	probeTimeout  time.Duration
	taskStarted   string
	canary        string
	workspace     string
	noSocketProbe bool

	diffBase string
	db       string

	labels []string // with docker://: only containers with these labels
	// depsOnly renders a dependency-only report (the deps command).
	depsOnly bool
	// github is OWNER/REPO: read its settings through GitHub's API; or
	// ORG: audit each of its repositories so.
	github, githubURL string
	githubCache       ghCacheFlags
	// forks and archived: with --github ORG, audit those repositories too.
	forks, archived bool
	// concurrency: with --github ORG, the repositories audited at once and
	// the most requests to GitHub in flight.
	concurrency int
}

func newScanCmd() *cobra.Command {
	o := &scanOptions{}
	cmd := &cobra.Command{
		Use:   "scan [PATH] [docker://[NAME]]",
		Short: "Audit the sandbox configuration under PATH",
		Long: `Audit the sandbox configuration found under PATH (default ".") and print the verdict,
the four properties and the findings. docker://NAME audits a running container through
the Docker Engine API (DOCKER_HOST or the default socket; read-only requests), docker://
every running one; with a PATH too, a running container of a compose service of PATH is
checked against its declaration (drift). --github OWNER/REPO reads the repository's
settings through GitHub's API too (its files as well, without PATH); --github ORG audits
every repository of the organisation so, one report each, and exits with the worst of
their exit codes, with at most --concurrency requests to GitHub in flight (default 8).

` + exitHelp,
		Example: `  sandbox-audit scan .
  sandbox-audit scan --format sarif -o results.sarif --summary markdown --summary-file "$GITHUB_STEP_SUMMARY" .
  sandbox-audit scan --fail-on medium --config .sandbox-audit.yaml infra/
  sandbox-audit scan docker:// --label role=agent
  GITHUB_TOKEN=… sandbox-audit scan --github my-org -f json -o org.json`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, containers := "", ""
			for _, a := range args {
				switch {
				case strings.HasPrefix(a, "docker://") && containers == "":
					containers = a
				case !strings.HasPrefix(a, "docker://") && path == "":
					path = a
				default:
					return usageError("scan takes at most one PATH and one docker:// target")
				}
			}
			if path == "" && containers == "" && !o.live && o.github == "" {
				path = "." // --live alone audits only the environment
			}
			return o.run(cmd, path, containers)
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
	f.BoolVar(&o.strict, "strict", false, "exit 2 when anything could not be audited (any errors[] entry: unreadable, unparseable, too large…); also strict: true in the policy file")
	f.DurationVar(&o.ruleTimeout, "rule-timeout", 0, "bound for each custom rule's evaluation; exceeding it exits 2 naming the rule (default 5s, or rule_timeout from the policy file)")
	f.StringVar(&o.github, "github", "", "also read OWNER/REPO's settings from GitHub (branch rules, Actions settings, CODEOWNERS, the copilot environment) with $GITHUB_TOKEN or $GH_TOKEN; without PATH its configuration files are fetched too. ORG: audit every repository of the organisation so, one report each, exit the worst")
	f.BoolVar(&o.forks, "forks", false, "with --github ORG: audit its forks too")
	f.BoolVar(&o.archived, "archived", false, "with --github ORG: audit its archived repositories too")
	f.IntVar(&o.concurrency, "concurrency", orgInFlight, "with --github ORG: repositories audited at once, and the most requests to GitHub in flight (1 or more)")
	f.StringVar(&o.githubURL, "github-url", "", "GitHub Enterprise Server's API URL (https://HOST/api/v3/) for --github")
	o.githubCache.add(f)
	f.StringArrayVar(&o.labels, "label", nil, "with docker://: only containers with this label, KEY or KEY=VALUE (repeatable)")
	f.BoolVar(&o.live, "live", false, "also audit the environment this process runs in (alone: only the environment)")
	f.StringVar(&o.root, "root", "/", "with --live: the root filesystem to audit (a fixture root or a mounted image)")
	f.BoolVar(&o.probe, "probe", false, "with --live: send active network probes to the policy's probe targets (default: cloud metadata endpoints and two internet hosts)")
	f.DurationVar(&o.probeTimeout, "probe-timeout", 2*time.Second, "with --probe: bound for each probe; probes run concurrently")
	f.StringVar(&o.taskStarted, "task-started", "", "with --live: when the agent's task began (RFC 3339); default: guessed from the process tree")
	f.StringVar(&o.canary, "canary", "", "with --live: leave a marker with a random nonce at PATH; finding an earlier marker proves reuse")
	f.StringVar(&o.workspace, "workspace", "", "with --live: the task's working tree (default $GITHUB_WORKSPACE, then $PWD)")
	f.BoolVar(&o.noSocketProbe, "no-socket-probe", false, "with --live: do not send read-only requests to runtime sockets found")
	f.StringVar(&o.diffBase, "diff-base", "", "also scan what the change since this git revision did to dependencies (see `sandbox-audit deps`)")
	f.StringVar(&o.db, "db", "", "with --diff-base: trivy's database directory (default: trivy's cache, $TRIVY_CACHE_DIR or ~/.cache/trivy); never downloaded")
	return cmd
}

func (o *scanOptions) validate() error {
	if _, err := reports.New(o.format, reports.Options{}); err != nil {
		return usageError("%v", err)
	}
	if o.summary != "" && o.summary != "none" && !slices.Contains([]string{"table", "markdown", "md"}, o.summary) {
		return usageError("--summary %q is not one of table, markdown, none", o.summary)
	}
	if !o.live {
		for _, f := range []struct {
			set  bool
			name string
		}{{o.root != "/", "--root"}, {o.probe, "--probe"}, {o.taskStarted != "", "--task-started"}, {o.canary != "", "--canary"}, {o.workspace != "", "--workspace"}, {o.noSocketProbe, "--no-socket-probe"}} {
			if f.set {
				return usageError("%s needs --live", f.name)
			}
		}
	}
	if o.db != "" && o.diffBase == "" {
		return usageError("--db needs --diff-base")
	}
	if err := o.githubCache.validate(); err != nil {
		return err
	}
	if o.probeTimeout <= 0 {
		return usageError("--probe-timeout must be positive")
	}
	if o.ruleTimeout < 0 {
		return usageError("--rule-timeout must be positive")
	}
	return severityFlag(o.failOn)
}

// liveOptions turns the flags into the live collector's options.
func (o *scanOptions) liveOptions() (*live.Options, error) {
	if !o.live {
		return nil, nil
	}
	lo := &live.Options{Root: o.root, Probe: o.probe, ProbeTimeout: o.probeTimeout, Canary: o.canary, Workspace: o.workspace, SkipSocketProbe: o.noSocketProbe}
	if o.root == "/" {
		// The real environment: judge this process's own variables.
		lo.Env = os.Environ()
	}
	if o.taskStarted != "" {
		t, err := time.Parse(time.RFC3339, o.taskStarted)
		if err != nil {
			return nil, usageError("--task-started %q is not an RFC 3339 time (e.g. 2026-11-29T14:00:00Z)", o.taskStarted)
		}
		lo.TaskStarted = t
	}
	if st, err := os.Stat(o.root); err != nil || !st.IsDir() {
		return nil, usageError("--root %s is not a readable directory", o.root)
	}
	return lo, nil
}

func (o *scanOptions) run(cmd *cobra.Command, path, containers string) error {
	if err := o.validate(); err != nil {
		return err
	}
	ctx := cmd.Context()
	var dk *docker.Options
	if name, ok := strings.CutPrefix(containers, "docker://"); ok {
		dk = &docker.Options{Labels: o.labels}
		if name != "" {
			dk.Names = []string{name}
		}
	} else if len(o.labels) > 0 {
		return usageError("--label needs a docker:// target")
	}
	if path != "" {
		if err := checkTarget(path); err != nil {
			return err
		}
	}
	lo, err := o.liveOptions()
	if err != nil {
		return err
	}
	cfg, err := audit.ConfigFor(o.config, path)
	if err != nil {
		return err
	}
	if o.github != "" && !strings.Contains(o.github, "/") {
		if !fleet.ValidOrg(o.github) {
			return usageError("--github %q is not OWNER/REPO nor an organisation", o.github)
		}
		if err := o.checkOrgFlags(path, containers); err != nil {
			return err
		}
		return o.runOrg(cmd, o.github)
	}
	if o.forks || o.archived {
		return usageError("--forks and --archived need --github ORG (an organisation)")
	}
	if cmd.Flags().Changed("concurrency") {
		return usageError("--concurrency needs --github ORG (an organisation): one repository is read one request at a time")
	}
	var gho *github.Options
	if o.github != "" {
		owner, repo, err := github.ParseRepo(o.github)
		if err != nil {
			return usageError("--github: %v", err)
		}
		cache, err := o.githubCache.open()
		if err != nil {
			return err
		}
		gho = &github.Options{Owner: owner, Repo: repo, APIURL: o.githubURL, Token: github.Token(), Cache: cache}
	} else if o.githubURL != "" {
		return usageError("--github-url needs --github OWNER/REPO")
	}
	rep, err := audit.Audit(ctx, audit.Options{
		GitHub: gho, Path: path, Docker: dk, Live: lo, Deps: o.depsOptions(path), Config: cfg, RuleDirs: o.ruleDirs, FailOn: o.failOn, Exclude: o.exclude,
		Baseline: o.baseline, WriteBaseline: o.writeBaseline, Strict: o.strict, RuleTimeout: o.ruleTimeout,
		Version: version.String(), Now: time.Now(), HelpBase: HelpBase,
	})
	if err != nil {
		return err
	}
	if err := o.emit(cmd, rep); err != nil {
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

// incomplete is the exit 2 of a run whose report is written but not whole:
// it names the rules that failed to evaluate, else (a strict run) what was
// not audited. The report has every entry.
func incomplete(errs []model.Error) error {
	var failed []string
	for _, e := range errs {
		if strings.HasPrefix(e.Kind, "rule:") {
			failed = append(failed, e.Message)
		}
	}
	if len(failed) > 0 {
		if len(failed) > 3 {
			failed = append(failed[:3], fmt.Sprintf("and %d more rule(s)", len(failed)-3))
		}
		return fmt.Errorf("%s (the report was written without their findings)", strings.Join(failed, "; "))
	}
	var files []string
	for i, e := range errs {
		if i == 3 {
			files = append(files, fmt.Sprintf("and %d more", len(errs)-3))
			break
		}
		files = append(files, e.File)
	}
	return fmt.Errorf("strict: %d input(s) could not be audited: %s", len(errs), strings.Join(files, ", "))
}

// summaryFindings is how many findings a summary lists; the full report
// (-o) has them all.
const summaryFindings = 30

// emit writes the report and the summary. The report goes to -o or stdout;
// the summary to --summary-file or stderr, so SARIF and a readable gate come
// out of one run.
func (o *scanOptions) emit(cmd *cobra.Command, rep *reports.Report) error {
	ro := reports.Options{DepsOnly: o.depsOnly}
	if o.output != "" {
		w, _ := reports.New(o.format, ro)
		if err := writeFile(o.output, w, rep); err != nil {
			return err
		}
	} else {
		opt := ro
		opt.Color = o.format == "table" && colorOK(cmd.OutOrStdout(), o.noColor)
		w, _ := reports.New(o.format, opt)
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
	so := ro
	so.Limit = summaryFindings
	if o.summaryFile != "" {
		f, err := os.OpenFile(o.summaryFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("write summary: %w", err)
		}
		sw, _ := reports.New(summary, so)
		if err := sw.Write(f, rep); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	so.Color = summary == "table" && colorOK(cmd.ErrOrStderr(), o.noColor)
	sw, _ := reports.New(summary, so)
	return sw.Write(cmd.ErrOrStderr(), rep)
}

// writeFile writes the report to path as it is rendered, not built whole
// in memory first: a large scan's report is tens of megabytes. A regular
// file is written beside its target and renamed over it, so a report that
// fails half-way leaves the previous one whole (a symlink at path keeps
// pointing where it did); anything else (/dev/stdout, a pipe) is written
// directly.
func writeFile(path string, w reports.Writer, rep *reports.Report) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	target := path
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			if err := writeTo(path, os.O_WRONLY, w, rep); err != nil {
				return fmt.Errorf("write report: %w", err)
			}
			return nil
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".sandbox-audit-report-*")
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	name := tmp.Name()
	tmp.Close()
	err = writeTo(name, os.O_WRONLY|os.O_TRUNC, w, rep)
	if err == nil {
		err = os.Chmod(name, 0o644)
	}
	if err == nil {
		err = os.Rename(name, target)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

func writeTo(path string, flag int, w reports.Writer, rep *reports.Report) error {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = w.Write(bw, rep)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// colorOK: colors only for a terminal, and never when NO_COLOR is set.
func colorOK(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// checkTarget refuses a target that is neither a folder nor a regular file
// (after symlinks): a FIFO or a device has no configuration to audit, and
// reading one would block or never end.
func checkTarget(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return usageError("cannot read target %s: %v", path, reason(err))
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return usageError("cannot read target %s: not a folder or a regular file", path)
	}
	return nil
}

func reason(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func (o *scanOptions) depsOptions(path string) *deps.Options {
	if o.diffBase == "" {
		return nil
	}
	if path == "" {
		path = "."
	}
	return &deps.Options{Repo: path, Base: o.diffBase, DBDir: o.db}
}
