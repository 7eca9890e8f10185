package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/reports"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestIngest: JSON reports written by the tool are stored as targets of
// one run, with their verdict, properties and findings; a file that is not
// such a report is that target's error, and a secret in a message is
// redacted on the way in.
func TestIngest(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		root := t.TempDir()
		write(t, root, map[string]string{"tree/compose.yaml": privileged})
		rep, err := audit.Audit(ctx, audit.Options{Path: filepath.Join(root, "tree")})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := (reports.JSON{}).Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		var forged map[string]any
		if err := json.Unmarshal(b.Bytes(), &forged); err != nil {
			t.Fatal(err)
		}
		fs := forged["findings"].([]any)
		fs[0].(map[string]any)["message"] = "token ghp_R8x2Lq9ZkT4mWv7Np3Ys6Ju1Hb5Gd0Fc2EaQ in the message"
		forgedJSON, _ := json.Marshal(forged)
		badSeverity := strings.Replace(b.String(), `"severity": "critical"`, `"severity": "apocalyptic"`, 1)
		write(t, root, map[string]string{
			"in/sandbox-1.json": b.String(),
			"in/sandbox-2.json": string(forgedJSON),
			"in/notjson.json":   "{ghp_0123456789abcdefghijklmnopqrstuvwxyz",
			"in/other.json":     `{"version": "2.1.0", "runs": []}`,
			"in/severity.json":  badSeverity,
		})
		files, _ := filepath.Glob(filepath.Join(root, "in", "*.json"))
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		sum, err := Ingest(ctx, files, st, Options{})
		if err != nil || sum.Stored != 5 || sum.Failed != 3 || !sum.RunComplete {
			t.Fatalf("summary %+v, %v", sum, err)
		}
		res := stored(t, st, sum.Run)
		one := res["sandbox-1"]
		if one == nil || one.Source != "ingest" || one.Verdict != rep.Verdict || len(one.Findings) != len(rep.Findings) || !hasRule(one, "privileged-container") {
			t.Fatalf("sandbox-1: %+v", one)
		}
		if one.Properties["disposable"].Status != rep.Properties.Disposable.Status {
			t.Errorf("properties %+v", one.Properties)
		}
		for _, f := range res["sandbox-2"].Findings {
			if strings.Contains(f.Message, "ghp_") {
				t.Errorf("a secret was stored: %q", f.Message)
			}
		}
		for id, want := range map[string]string{"notjson": "not JSON", "other": "not a sandbox-audit JSON report", "severity": "unknown severity"} {
			if got := res[id].Error; !strings.Contains(got, want) || strings.Contains(got, "ghp_") {
				t.Errorf("%s: error %q, want %q", id, got, want)
			}
		}
		rep2, err := Build(ctx, st, sum.Run, 0)
		if err != nil {
			t.Fatal(err)
		}
		var tbl strings.Builder
		if err := rep2.WriteTable(&tbl); err != nil || !strings.Contains(tbl.String(), "sandbox-1 (self-reported)") {
			t.Errorf("the report does not mark ingested results (%v):\n%s", err, tbl.String())
		}
		dup := []string{files[0], filepath.Join(t.TempDir(), filepath.Base(files[0]))}
		os.WriteFile(dup[1], b.Bytes(), 0o644)
		if _, err := Ingest(ctx, dup, st, Options{}); err == nil || !strings.Contains(err.Error(), "both name target") {
			t.Errorf("two files of one name: %v", err)
		}
	})
}

func FuzzParseReport(f *testing.F) {
	f.Add([]byte(`{"tool": {"name": "sandbox-audit"}, "verdict": "unknown", "properties": {"disposable": {"status": "pass", "score": 100}, "network": {"status": "unknown"}, "credentials": {"status": "fail", "score": 20}, "review": {"status": "unknown"}}, "findings": [{"fingerprint": "a", "severity": "high", "property": "network", "message": "m"}]}`))
	f.Add([]byte(`{"tool": {"name": "sandbox-audit"}, "verdict": "boundary", "findings": [{"fingerprint": "a"}, {"fingerprint": "a"}]}`))
	f.Add([]byte(`[1, 2`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := parseReport("r.json", b)
		if err != nil {
			return
		}
		if _, known := verdictRank[rep.Verdict]; rep.Tool.Name != "sandbox-audit" || !known {
			t.Fatalf("accepted %+v", rep)
		}
		for _, x := range rep.Findings {
			if x.Fingerprint == "" || !slices.Contains(rules.Severities, x.Severity) {
				t.Fatalf("accepted finding %+v", x)
			}
		}
	})
}
