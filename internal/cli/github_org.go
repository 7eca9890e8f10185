package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
	"github.com/sandbox-audit/sandbox-audit/internal/version"
	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// orgInFlight is --concurrency's default for scan --github ORG: it bounds
// the requests in flight and the workers alike, since an audit through the
// API waits on answers far more than it computes. Fewer keeps further from
// GitHub's secondary rate limits (which the client waits out).
const orgInFlight = 8

// orgResult is one repository of scan --github ORG.
type orgResult struct {
	Repository string // OWNER/NAME
	Report     *reports.Report
	Err        error
}

// exit is the repository's exit code, as scan --github OWNER/REPO's.
func (r orgResult) exit() int {
	switch {
	case r.Err != nil || r.Report == nil || r.Report.Gate.Incomplete:
		return ExitCannotRun
	case !r.Report.Gate.Passed:
		return ExitGate
	}
	return ExitOK
}

// checkOrgFlags refuses what has no meaning for a whole organisation.
func (o *scanOptions) checkOrgFlags(path, containers string) error {
	if o.concurrency < 1 {
		return usageError("--concurrency %d: give 1 or more (the repositories audited at once and the most requests to GitHub in flight; default %d)", o.concurrency, orgInFlight)
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{path != "", "a PATH"}, {containers != "", "a docker:// target"}, {o.live, "--live"}, {o.diffBase != "", "--diff-base"},
		{o.baseline != "", "--baseline"}, {o.writeBaseline != "", "--write-baseline"}} {
		if f.set {
			return usageError("--github %s is an organisation: %s is for one repository (--github OWNER/REPO)", o.github, f.name)
		}
	}
	return nil
}

// runOrg audits every repository of an organisation (scan --github ORG),
// each as scan --github OWNER/REPO would, and exits with the worst of
// their exit codes.
func (o *scanOptions) runOrg(cmd *cobra.Command, org string) error {
	ctx := cmd.Context()
	if _, err := audit.ConfigFor(o.config, ""); err != nil {
		return err
	}
	cache, err := o.githubCache.open()
	if err != nil {
		return err
	}
	gh := github.Options{APIURL: o.githubURL, Token: github.Token(), Cache: cache, Client: github.NewClient(o.concurrency)}
	targets, err := fleet.GitHubTargets(ctx, gh, org, o.forks, o.archived, o.config)
	if err != nil {
		return fmt.Errorf("%w: %v", audit.ErrUsage, err)
	}
	// Reported in the order of their names; fleet.Audit gives them as
	// they finish.
	sort.Slice(targets, func(i, j int) bool { return targets[i].ID < targets[j].ID })
	index := map[string]int{}
	results := make([]orgResult, len(targets))
	for i, t := range targets {
		index[t.ID] = i
		results[i] = orgResult{Repository: t.GitHub.Owner + "/" + t.GitHub.Name}
	}
	progress := func(int, string) {}
	if f, ok := cmd.ErrOrStderr().(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		progress = func(done int, id string) {
			fmt.Fprintf(f, "\r%d/%d %-40.40s", done, len(targets), id)
			if done == len(targets) {
				fmt.Fprint(f, "\r\x1b[K")
			}
		}
	}
	var mu sync.Mutex
	done := 0
	opt := fleet.Options{Concurrency: o.concurrency, Timeout: 10 * time.Minute, RuleDirs: o.ruleDirs, Version: version.String(), GitHub: gh,
		Scan: fleet.ScanFlags{FailOn: o.failOn, Strict: o.strict, Exclude: o.exclude, RuleTimeout: o.ruleTimeout, HelpBase: HelpBase}}
	err = fleet.Audit(ctx, targets, opt, func(t fleet.Target, rep *reports.Report, err error) {
		mu.Lock()
		defer mu.Unlock()
		r := &results[index[t.ID]]
		r.Report, r.Err = rep, err
		done++
		progress(done, t.ID)
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	out := orgOutput{org: org, format: o.format, results: results}
	if err := o.emitOrg(cmd, out); err != nil {
		return err
	}
	worst := ExitOK
	for _, r := range results {
		worst = max(worst, r.exit())
	}
	switch worst {
	case ExitCannotRun:
		return errOrgIncomplete(results)
	case ExitGate:
		return errGate
	}
	return nil
}

// errOrgIncomplete is exit 2 naming the repositories not audited whole.
func errOrgIncomplete(results []orgResult) error {
	var names []string
	for _, r := range results {
		if r.exit() == ExitCannotRun {
			names = append(names, r.Repository)
		}
	}
	shown := names[:min(len(names), 3)]
	more := ""
	if len(names) > 3 {
		more = fmt.Sprintf(" and %d more", len(names)-3)
	}
	return fmt.Errorf("%d of %d repositories could not be audited (whole, under strict): %s%s", len(names), len(results), strings.Join(shown, ", "), more)
}

// emitOrg writes the organisation's report (-o or stdout) and its summary
// (--summary-file or stderr), as emit does for one report.
func (o *scanOptions) emitOrg(cmd *cobra.Command, out orgOutput) error {
	if o.output != "" {
		if err := writeFile(o.output, out, nil); err != nil {
			return err
		}
	} else {
		out.opt.Color = o.format == "table" && colorOK(cmd.OutOrStdout(), o.noColor)
		if err := out.Write(cmd.OutOrStdout(), nil); err != nil {
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
	if o.summaryFile != "" {
		f, err := os.OpenFile(o.summaryFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("write summary: %w", err)
		}
		if err := out.overview(f, summary != "table"); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return out.overview(cmd.ErrOrStderr(), summary != "table")
}

// orgOutput renders scan --github ORG: each repository's report, in the
// order of their names. It is a reports.Writer so that -o writes it as it
// writes one report; the report it is given is not used.
type orgOutput struct {
	org     string
	format  string
	opt     reports.Options
	results []orgResult
}

var _ reports.Writer = orgOutput{}

// orgJSON is the JSON of scan --github ORG (README, "A whole organisation").
type orgJSON struct {
	Tool         reports.Tool `json:"tool"`
	Organisation string       `json:"organisation"`
	Summary      orgSummary   `json:"summary"`
	Repositories []orgRepo    `json:"repositories"`
}

type orgSummary struct {
	Repositories int `json:"repositories"`
	Boundary     int `json:"boundary"`
	Convenience  int `json:"convenience"`
	Unknown      int `json:"unknown"`
	// Failed: could not be audited (or not whole, under strict): exit 2.
	Failed     int `json:"failed"`
	GateFailed int `json:"gate_failed"`
	ExitCode   int `json:"exit_code"`
}

type orgRepo struct {
	Repository string          `json:"repository"`
	ExitCode   int             `json:"exit_code"`
	Report     json.RawMessage `json:"report,omitempty"`
	Error      string          `json:"error,omitempty"`
}

func (out orgOutput) summary() orgSummary {
	s := orgSummary{Repositories: len(out.results)}
	for _, r := range out.results {
		code := r.exit()
		s.ExitCode = max(s.ExitCode, code)
		switch {
		case code == ExitCannotRun:
			s.Failed++
		case code == ExitGate:
			s.GateFailed++
		}
		if r.Report == nil {
			continue
		}
		switch r.Report.Verdict {
		case "boundary":
			s.Boundary++
		case "convenience":
			s.Convenience++
		default:
			s.Unknown++
		}
	}
	return s
}

// errorText is why a repository could not be audited, as it may be printed.
func (r orgResult) errorText() string {
	if r.Err == nil {
		return ""
	}
	return secrets.Redact(strings.TrimPrefix(r.Err.Error(), audit.ErrUsage.Error()+": "))
}

// Write implements reports.Writer.
func (out orgOutput) Write(w io.Writer, _ *reports.Report) error {
	switch out.format {
	case "json":
		return out.writeJSON(w)
	case "sarif":
		return out.writeSARIF(w)
	}
	one, err := reports.New(out.format, out.opt)
	if err != nil {
		return err
	}
	md := out.format == "markdown" || out.format == "md"
	for i, r := range out.results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if r.Report == nil {
			if md {
				fmt.Fprintf(w, "## sandbox-audit: github:%s could not be audited\n\n%s\n", r.Repository, reports.MarkdownEscape(r.errorText()))
			} else {
				fmt.Fprintf(w, "sandbox-audit %s — github:%s\nCould not be audited: %s\n", version.String(), r.Repository, reports.Printable(r.errorText()))
			}
			continue
		}
		if err := one.Write(w, r.Report); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	return out.overview(w, md)
}

func (out orgOutput) writeJSON(w io.Writer) error {
	doc := orgJSON{Tool: reports.Tool{Name: "sandbox-audit", Version: version.String()}, Organisation: out.org, Summary: out.summary(), Repositories: []orgRepo{}}
	for _, r := range out.results {
		e := orgRepo{Repository: r.Repository, ExitCode: r.exit(), Error: r.errorText()}
		if r.Report != nil {
			var b bytes.Buffer
			if err := (reports.JSON{}).Write(&b, r.Report); err != nil {
				return err
			}
			e.Report = b.Bytes()
		}
		doc.Repositories = append(doc.Repositories, e)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// writeSARIF writes one SARIF log with one run per repository (category
// sandbox-audit/github/OWNER/NAME/), as fleet report -f sarif does; a
// repository that could not be audited is a run with that error.
func (out orgOutput) writeSARIF(w io.Writer) error {
	var ts []reports.SARIFTarget
	for _, r := range out.results {
		rep := r.Report
		if rep == nil {
			rep = &reports.Report{Tool: reports.Tool{Name: "sandbox-audit", Version: version.String()}, Findings: []rules.Finding{},
				Errors: []model.Error{{File: "github/" + r.Repository, Message: r.errorText()}}}
		} else {
			// Only the rules with results: 500 runs of every rule's help
			// would be most of the log.
			cp := *rep
			seen := map[string]bool{}
			for _, f := range rep.Findings {
				seen[f.RuleID] = true
			}
			cp.Rules = nil
			for _, m := range rep.Rules {
				if seen[m.ID] {
					cp.Rules = append(cp.Rules, m)
				}
			}
			rep = &cp
		}
		ts = append(ts, reports.SARIFTarget{Category: "sandbox-audit/github/" + r.Repository + "/", Report: rep})
	}
	return reports.WriteSARIFRuns(w, ts)
}

// overview is one line per repository: verdict, the four properties, the
// findings and the exit code; then the organisation's summary.
func (out orgOutput) overview(w io.Writer, md bool) error {
	s := out.summary()
	line := fmt.Sprintf("organisation %s: %d repositories: %d boundary, %d convenience, %d unknown; %d failed the gate, %d could not be audited; exit %d",
		out.org, s.Repositories, s.Boundary, s.Convenience, s.Unknown, s.GateFailed, s.Failed, s.ExitCode)
	header := []string{"Repository", "Verdict", "Disposable", "Network", "Credentials", "Review", "Findings", "Exit"}
	var rows [][]string
	for _, r := range out.results {
		if r.Report == nil {
			rows = append(rows, []string{r.Repository, "not audited", "", "", "", "", "", fmt.Sprint(r.exit())})
			continue
		}
		p := r.Report.Properties
		n := 0 // active: not waived nor baselined
		for _, f := range r.Report.Findings {
			if f.Suppression == nil {
				n++
			}
		}
		rows = append(rows, []string{r.Repository, r.Report.Verdict, p.Disposable.Status, p.Network.Status, p.Credentials.Status, p.Review.Status,
			fmt.Sprint(n), fmt.Sprint(r.exit())})
	}
	if md {
		ew := &bytes.Buffer{}
		fmt.Fprintf(ew, "## sandbox-audit: organisation %s\n\n%s\n\n| %s |\n|%s\n", reports.MarkdownEscape(out.org), reports.MarkdownEscape(line),
			strings.Join(header, " | "), strings.Repeat("---|", len(header)))
		for _, row := range rows {
			fmt.Fprintf(ew, "| %s |\n", strings.Join(row, " | "))
		}
		_, err := w.Write(ew.Bytes())
		return err
	}
	if len(rows) > 0 {
		if err := reports.RenderTable(w, header, rows); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
