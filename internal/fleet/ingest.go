package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// maxReportSize bounds one ingested report.
const maxReportSize = 32 << 20

// IngestID names an ingested report's target: its file name without .json
// (a sandbox writes sandbox-7.json; a run lists sandbox-7), redacted: the
// name is the sandbox's choice, printed in every report.
func IngestID(file string) string {
	return secrets.Redact(strings.TrimSuffix(filepath.Base(file), ".json"))
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
			return sum, fmt.Errorf("%w: %s and %s both name target %s", ErrInventory, secrets.Redact(other), secrets.Redact(f), ids[i])
		}
		seen[ids[i]] = f
	}
	sc, err := policies.NewScorer(ctx)
	if err != nil {
		return sum, err
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
		if rerr == nil {
			rerr = rescore(ctx, sc, rep)
		}
		if err := st.saveResult(ctx, run, ids[i], "", sourceIngest, rep, rerr, 0); err != nil {
			return sum, fmt.Errorf("store target %s: %w", ids[i], err)
		}
		sum.Stored++
		switch {
		case rerr != nil:
			sum.Failed++
		case rep.Gate.Incomplete:
			sum.Incomplete++
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

// fingerprintForm is policies.Fingerprint's: 8 bytes of SHA-256 in
// lowercase hex, -N for the Nth alike in one file. Nothing else is one,
// so a report cannot store any other text as a fingerprint.
var fingerprintForm = regexp.MustCompile(`^[0-9a-f]{16}(-[0-9]{1,6})?$`)

// fieldPath is a path of the report's own field names; a path through a
// map holds the sandbox's keys, and is not quoted.
var fieldPath = regexp.MustCompile(`^[a-z_]{1,40}(\.[a-z_]{1,40}){0,5}$`)

// kindForm is an errors[] kind's (a collector: workflows, live:network).
var kindForm = regexp.MustCompile(`^[a-z0-9:-]{0,40}$`)

// readReport reads and checks one report; an error names the file
// (redacted, as its target's name is) and says what is wrong without
// quoting the file.
func readReport(ctx context.Context, file string) (*reports.Report, error) {
	name := secrets.Redact(filepath.Base(file))
	b, err := collectors.ReadFile(ctx, file, maxReportSize)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s", name, collectors.Reason(err))
	}
	return parseReport(name, b)
}

// parseReport decodes and checks one report (name: its redacted file
// name). An error names the field that is wrong, never its value: the
// value is the sandbox's, and the error is stored and printed.
func parseReport(name string, b []byte) (*reports.Report, error) {
	rep := &reports.Report{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(rep); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s is not JSON (offset %d)", name, se.Offset)
		case errors.As(err, &te) && fieldPath.MatchString(te.Field):
			return nil, fmt.Errorf("%s: field %s has the wrong type", name, te.Field)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: a field has the wrong type", name)
		}
		return nil, fmt.Errorf("%s is not a sandbox-audit JSON report", name)
	}
	if rep.Tool.Name != "sandbox-audit" {
		return nil, fmt.Errorf("%s is not a sandbox-audit JSON report (scan -f json)", name)
	}
	if _, known := verdictRank[rep.Verdict]; !known {
		return nil, fmt.Errorf("%s: the verdict is not one this release knows", name)
	}
	for _, p := range rep.Properties.Each() {
		if !knownStatuses[p.Status] || p.Score < 0 || p.Score > 100 {
			return nil, fmt.Errorf("%s: property %s has a status or score this release does not know", name, p.Key)
		}
	}
	fps := map[string]bool{}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		bad := ""
		switch {
		case !fingerprintForm.MatchString(f.Fingerprint):
			bad = "no fingerprint of the form sandbox-audit gives"
		case fps[f.Fingerprint]:
			bad = "a repeated fingerprint"
		case !slices.Contains(rules.Severities, f.Severity):
			bad = "an unknown severity"
		case !slices.Contains(rules.Properties, f.Property):
			bad = "an unknown property"
		case !slices.Contains(rules.Categories, f.Category) && f.Category != rules.NoteCategory:
			bad = "an unknown category"
		case !rules.ValidID(f.RuleID) || secrets.Redact(f.RuleID) != f.RuleID:
			bad = "a rule_id that is none"
		}
		if bad != "" {
			return nil, fmt.Errorf("%s: finding %d has %s", name, i+1, bad)
		}
		fps[f.Fingerprint] = true
		f.Message = secrets.Redact(f.Message)
		f.File = secrets.Redact(f.File)
	}
	for i := range rep.Errors {
		e := &rep.Errors[i]
		if !kindForm.MatchString(e.Kind) || secrets.Redact(e.Kind) != e.Kind {
			return nil, fmt.Errorf("%s: errors entry %d has a kind this release does not know", name, i+1)
		}
		e.Message = secrets.Redact(e.Message)
		e.File = secrets.Redact(e.File)
	}
	return rep, nil
}

// evidence is, per property, the live check policies/coverage.rego takes
// as evidence for it.
var evidence = map[string]string{"disposable": "isolation", "network": "network", "credentials": "credentials", "review": "git"}

// rescore gives an ingested report the statuses and the verdict the
// scoring policy (policies/score.rego, the one definition of a verdict)
// gives what it says, rather than the verdict it writes: a sandbox can
// write "boundary" above a failing property. The policy cannot see the
// sandbox's evidence again, so the report's statuses stand in for it: a
// property it calls unknown has no evidence, one it calls failed a minimum
// score none reaches; its findings fail the properties they fail, and its
// errors[] leave unknown the properties they leave unknown. Should the
// policy come to want more evidence, a property is unknown, never passed.
// A report that lists what it did not read (errors[], an incomplete gate)
// is at best unknown: what was not read never passes.
func rescore(ctx context.Context, sc *policies.Scorer, rep *reports.Report) error {
	live := map[string]bool{}
	minScore := map[string]int{}
	for _, p := range rep.Properties.Each() {
		if p.Status != "unknown" {
			live[evidence[p.Key]] = true
		}
		if p.Status == "fail" {
			minScore[p.Key] = 101
		}
	}
	unread := make([]policies.Unread, 0, len(rep.Errors))
	for _, e := range rep.Errors {
		unread = append(unread, policies.Unread{Source: e.File, Kind: e.Kind, Partial: e.Partial, Error: true})
	}
	res, err := sc.Score(ctx, rep.Findings, nil, live, unread, policies.Settings{MinScore: minScore})
	if err != nil {
		return fmt.Errorf("scoring the report: %w", err)
	}
	for k, p := range map[string]*policies.Property{"disposable": &rep.Properties.Disposable, "network": &rep.Properties.Network,
		"credentials": &rep.Properties.Credentials, "review": &rep.Properties.Review} {
		p.Status = res.Properties[k].Status
	}
	rep.Verdict = res.Verdict
	if (len(rep.Errors) > 0 || rep.Gate.Incomplete) && verdictRank[rep.Verdict] < verdictRank["unknown"] {
		rep.Verdict = "unknown"
	}
	if _, known := verdictRank[rep.Verdict]; !known {
		return errors.New("the scoring policy gave no verdict")
	}
	return nil
}
