package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// maxReportSize bounds one ingested report.
const maxReportSize = 32 << 20

// IngestID names an ingested report's target: its file name without .json
// (a sandbox writes sandbox-7.json; a run lists sandbox-7).
func IngestID(file string) string {
	return strings.TrimSuffix(filepath.Base(file), ".json")
}

// Ingest stores JSON reports that sandboxes produced of themselves (scan
// --live -f json inside each), one target per file, as one run. A file
// that is not such a report (unreadable, not JSON, another tool's, a
// verdict, status or severity this release does not know) is stored with
// that error and the others go on. Messages are redacted again: a report
// is the sandbox's own word, and the store never holds a secret value.
//
// What a sandbox reports of itself is only as trustworthy as the sandbox:
// an agent that controls its sandbox can write its own report. The store
// marks these results as ingested.
func Ingest(ctx context.Context, files []string, st *Store, opt Options) (Summary, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	sum := Summary{}
	ids := make([]string, len(files))
	seen := map[string]string{}
	for i, f := range files {
		ids[i] = IngestID(f)
		if other, dup := seen[ids[i]]; dup {
			return sum, fmt.Errorf("%w: %s and %s both name target %s", ErrInventory, other, f, ids[i])
		}
		seen[ids[i]] = f
	}
	run, stored, _, err := st.OpenRun(ctx, opt.Run, opt.Now(), ids)
	if err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	sum.Run = run
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			break
		}
		sum.Targets++
		if stored[ids[i]] {
			sum.Skipped++
			continue
		}
		rep, rerr := readReport(ctx, f)
		if err := st.saveResult(ctx, run, ids[i], "", sourceIngest, rep, rerr, 0); err != nil {
			return sum, fmt.Errorf("store target %s: %w", ids[i], err)
		}
		sum.Stored++
		if rerr != nil {
			sum.Failed++
		}
		if opt.Progress != nil {
			opt.Progress(sum.Stored, len(files), Target{ID: ids[i], Path: f}, rerr)
		}
	}
	sum.Complete = ctx.Err() == nil && sum.Stored+sum.Skipped == len(files)
	sum.RunComplete, err = st.EndRun(context.WithoutCancel(ctx), run, opt.Now())
	if err != nil {
		return sum, fmt.Errorf("store: %w", err)
	}
	return sum, ctx.Err()
}

// knownStatuses are the statuses a property can have.
var knownStatuses = map[string]bool{"pass": true, "fail": true, "unknown": true}

// readReport reads and checks one report; an error says what is wrong
// without quoting the file.
func readReport(ctx context.Context, file string) (*reports.Report, error) {
	b, err := collectors.ReadFile(ctx, file, maxReportSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s", filepath.Base(file), collectors.Reason(err))
	}
	return parseReport(file, b)
}

// parseReport decodes and checks one report.
func parseReport(file string, b []byte) (*reports.Report, error) {
	rep := &reports.Report{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(rep); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s is not JSON (offset %d)", filepath.Base(file), se.Offset)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: field %s has the wrong type", filepath.Base(file), te.Field)
		}
		return nil, fmt.Errorf("%s is not a sandbox-audit JSON report", filepath.Base(file))
	}
	if rep.Tool.Name != "sandbox-audit" {
		return nil, fmt.Errorf("%s is not a sandbox-audit JSON report (scan -f json)", filepath.Base(file))
	}
	if _, known := verdictRank[rep.Verdict]; !known {
		return nil, fmt.Errorf("%s: verdict %q is not one this release knows", filepath.Base(file), clip(rep.Verdict))
	}
	for _, p := range rep.Properties.Each() {
		if !knownStatuses[p.Status] || p.Score < 0 || p.Score > 100 {
			return nil, fmt.Errorf("%s: property %s has status %q, score %d", filepath.Base(file), p.Key, clip(p.Status), p.Score)
		}
	}
	fps := map[string]bool{}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		if !slices.Contains(rules.Severities, f.Severity) || f.Fingerprint == "" || fps[f.Fingerprint] ||
			!slices.Contains(rules.Properties, f.Property) || !rules.ValidID(f.RuleID) {
			return nil, fmt.Errorf("%s: finding %d has no fingerprint, a repeated one, an unknown severity or property, or a rule id that is none", filepath.Base(file), i+1)
		}
		fps[f.Fingerprint] = true
		f.Message = secrets.Redact(f.Message)
		f.File = secrets.Redact(f.File)
	}
	return rep, nil
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
