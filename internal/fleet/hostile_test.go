package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/audit"
	"github.com/sandbox-audit/sandbox-audit/internal/testenv"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

const secret = "ghp_R8x2Lq9ZkT4mWv7Np3Ys6Ju1Hb5Gd0Fc2EaQ"

// genuine is the JSON report the tool writes of a tree, as a map to forge.
func genuine(t *testing.T, files map[string]string) map[string]any {
	t.Helper()
	root := t.TempDir()
	write(t, root, files)
	rep, err := audit.Audit(context.Background(), audit.Options{Path: root})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (reports.JSON{}).Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIngestRefusesForeignValues: a finding's fingerprint and category are
// stored and printed as they are, so only the tool's own forms are taken;
// no error quotes the value it refuses (it is stored and printed).
func TestIngestRefusesForeignValues(t *testing.T) {
	base := func() map[string]any { return genuine(t, map[string]string{"compose.yaml": privileged}) }
	finding := func(m map[string]any) map[string]any { return m["findings"].([]any)[0].(map[string]any) }
	for _, tt := range []struct {
		name, field string
		forge       func(m map[string]any)
	}{
		{"fingerprint", "fingerprint", func(m map[string]any) { finding(m)["fingerprint"] = secret }},
		{"short fingerprint", "fingerprint", func(m map[string]any) { finding(m)["fingerprint"] = "a" }},
		{"category", "category", func(m map[string]any) { finding(m)["category"] = secret }},
		{"verdict", "verdict", func(m map[string]any) { m["verdict"] = secret }},
		{"status", "property disposable", func(m map[string]any) {
			m["properties"].(map[string]any)["disposable"].(map[string]any)["status"] = secret
		}},
		{"error kind", "kind", func(m map[string]any) {
			m["errors"] = []any{map[string]any{"file": "x", "message": "m", "kind": secret}}
		}},
		{"rule id", "rule_id", func(m map[string]any) { finding(m)["rule_id"] = "glpat-abcdefghij0123456789" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := base()
			tt.forge(m)
			_, err := parseReport("r.json", encode(t, m))
			if err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("error %v, want one naming %s", err, tt.field)
			}
			if strings.Contains(err.Error(), "ghp_") || strings.Contains(err.Error(), "glpat") || strings.Contains(err.Error(), "R8x2") {
				t.Errorf("the error quotes the value: %v", err)
			}
		})
	}
	if _, err := parseReport("r.json", encode(t, base())); err != nil {
		t.Errorf("the tool's own report: %v", err)
	}
}

// TestIngestRecomputesVerdict: an ingested report's verdict is the one
// the scoring policy gives its properties and findings, at best unknown
// when it lists what it did not read, never the one it writes.
func TestIngestRecomputesVerdict(t *testing.T) {
	sc, err := policies.NewScorer(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	clean := "services:\n  agent:\n    image: example/claude-runner:1\n    read_only: true\n    network_mode: none\n"
	props := func(m map[string]any, status string) {
		for _, p := range m["properties"].(map[string]any) {
			p.(map[string]any)["status"] = status
		}
	}
	for _, tt := range []struct {
		name, want string
		forge      func(m map[string]any)
	}{
		{"genuine", "", func(map[string]any) {}},
		{"a failing property", "convenience", func(m map[string]any) {
			props(m, "pass")
			m["properties"].(map[string]any)["network"].(map[string]any)["status"] = "fail"
		}},
		{"a critical finding under passing properties", "convenience", func(m map[string]any) {
			g := genuine(t, map[string]string{"compose.yaml": privileged})
			m["findings"] = g["findings"]
			props(m, "pass")
		}},
		{"an unknown property", "unknown", func(m map[string]any) {
			props(m, "pass")
			m["properties"].(map[string]any)["review"].(map[string]any)["status"] = "unknown"
		}},
		{"errors", "unknown", func(m map[string]any) {
			props(m, "pass")
			m["errors"] = []any{map[string]any{"file": "deps", "message": "could not read"}}
		}},
		{"an incomplete gate", "unknown", func(m map[string]any) {
			props(m, "pass")
			m["gate"].(map[string]any)["incomplete"] = true
		}},
		{"all four pass", "boundary", func(m map[string]any) { props(m, "pass"); m["findings"] = []any{} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := genuine(t, map[string]string{"compose.yaml": clean})
			want := tt.want
			if want == "" {
				want = m["verdict"].(string)
			}
			tt.forge(m)
			m["verdict"] = "boundary"
			rep, err := parseReport("r.json", encode(t, m))
			if err == nil {
				err = rescore(context.Background(), sc, rep)
			}
			if err != nil || rep.Verdict != want {
				t.Fatalf("verdict %q (%v), want %q", rep.Verdict, err, want)
			}
		})
	}
}

// forgedBoundary is the report a sandbox writes to look clean: verdict
// boundary, every property passing, no finding.
func forgedBoundary(t *testing.T) []byte {
	m := genuine(t, map[string]string{"compose.yaml": privileged})
	for _, p := range m["properties"].(map[string]any) {
		p.(map[string]any)["status"] = "pass"
		p.(map[string]any)["score"] = 100
	}
	m["verdict"], m["findings"] = "boundary", []any{}
	return encode(t, m)
}

// everyFormat renders the report in each format.
func everyFormat(t *testing.T, r *Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, w := range map[string]func(*Report, *bytes.Buffer) error{
		"table":    func(r *Report, b *bytes.Buffer) error { return r.WriteTable(b) },
		"json":     func(r *Report, b *bytes.Buffer) error { return r.WriteJSON(b) },
		"markdown": func(r *Report, b *bytes.Buffer) error { return r.WriteMarkdown(b) },
		"html":     func(r *Report, b *bytes.Buffer) error { return r.WriteHTML(b) },
		"sarif":    func(r *Report, b *bytes.Buffer) error { return r.WriteSARIF(b) },
	} {
		var b bytes.Buffer
		if err := w(r, &b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	return out
}

// TestSelfReportedAgainstAudit: a sandbox's report of itself, stored
// after an audit of the same target, fixes nothing and is no better: it
// is worse (--fail-on-regression fails), marked in every format that shows
// changes, and its verdict is marked self-reported wherever one is shown.
func TestSelfReportedAgainstAudit(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		root := t.TempDir()
		write(t, root, map[string]string{"platform/compose.yaml": privileged})
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := Scan(ctx, []Target{{ID: "platform", Path: filepath.Join(root, "platform")}}, st, Options{}); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(root, "platform.json")
		os.WriteFile(file, forgedBoundary(t), 0o644)
		if _, err := Ingest(ctx, []string{file}, st, Options{}); err != nil {
			t.Fatal(err)
		}
		r, err := Build(ctx, st, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) != 1 {
			t.Fatalf("changes %+v", r.Changes)
		}
		c := r.Changes[0]
		if !c.SourceChanged || !c.Worse || len(c.Fixed) != 0 || !r.Regressed() {
			t.Errorf("change %+v: want a source change, worse, nothing fixed", c)
		}
		// Consistent with itself, the forgery is a boundary: a self-reported one.
		if r.Verdicts["boundary"] != 1 || r.SelfReported["boundary"] != 1 {
			t.Errorf("verdicts %v, self-reported %v", r.Verdicts, r.SelfReported)
		}
		out := everyFormat(t, r)
		for format, want := range map[string][]string{
			"table":    {"platform (self-reported) (WORSE, audited -> self-reported)", "(1 self-reported)"},
			"json":     {`"source_changed": true`, `"self_reported": {`},
			"markdown": {"**worse**, audited -&gt; self-reported", "| Verdict | Targets | Self-reported |"},
			"html":     {"(audited -&gt; self-reported)", "self-reported-" + c.Verdict},
			"sarif":    {`"source": "ingest"`},
		} {
			for _, w := range want {
				if !strings.Contains(out[format], w) {
					t.Errorf("%s does not say %q:\n%s", format, w, out[format])
				}
			}
			if format != "sarif" && (strings.Contains(out[format], "better") || strings.Contains(out[format], "3 fixed")) {
				t.Errorf("%s counts the self-report as better:\n%s", format, out[format])
			}
		}
	})
	// The other way, an audit after a self-report: not better either.
	old := map[string]*Result{"p": {Target: "p", Source: sourceIngest, Verdict: "convenience", Findings: []Finding{{Fingerprint: "a", Severity: "high"}}}}
	cur := map[string]*Result{"p": {Target: "p", Source: sourceAudit, Verdict: "boundary"}}
	cs := diff(old, cur)
	if len(cs) != 1 || cs[0].Mark() != "not comparable" || len(cs[0].Fixed) != 0 {
		t.Errorf("self-reported then audited: %+v", cs)
	}
}

// TestUnreadStored: what a target's audit could not read (errors[]) and
// its strict gate's incompleteness are stored and shown in every format;
// the run counts the target as incomplete (fleet scan exits 2), as scan
// of the target alone does.
func TestUnreadStored(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		root := t.TempDir()
		write(t, root, map[string]string{"a/.sandbox-audit.yaml": "version: 1\nstrict: true\n", "b/compose.yaml": privileged})
		if err := syscall.Mkfifo(filepath.Join(root, "a", "compose.yaml"), 0o644); err != nil {
			testenv.SkipOutsideCI(t, "no FIFO: "+err.Error())
		}
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		ts, err := (&Inventory{Dir: root, Targets: []TargetDef{{Path: "*"}}}).Expand()
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Scan(ctx, ts, st, Options{})
		if err != nil || sum.Incomplete != 1 || sum.Failed != 0 {
			t.Fatalf("summary %+v, %v: want a incomplete", sum, err)
		}
		res := stored(t, st, sum.Run)
		a := res["a"]
		if !a.Incomplete || len(a.Unread) != 1 || a.Unread[0].File != "compose.yaml" || a.Unread[0].Message == "" || res["b"].Incomplete {
			t.Fatalf("a %+v, b %+v", a, res["b"])
		}
		r, err := Build(ctx, st, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := everyFormat(t, r)
		for format, want := range map[string][]string{
			"table":    {"a: 1 input(s) not read; strict: the gate is incomplete", "    compose.yaml: "},
			"json":     {`"incomplete": true`, `"entries": [`, `"file": "compose.yaml"`},
			"markdown": {"- a: 1 input(s) not read; strict: the gate is incomplete"},
			"html":     {`id="unread"`, "1 input(s) not read; strict: the gate is incomplete"},
			"sarif":    {`"uri": "compose.yaml"`, "toolExecutionNotifications"},
		} {
			for _, w := range want {
				if !strings.Contains(out[format], w) {
					t.Errorf("%s does not say %q:\n%s", format, w, out[format])
				}
			}
		}
	})
}

// TestHostileIngestedText: what an ingested report says (its name, its
// messages and files) reaches a terminal with no control character and
// Markdown with no syntax of its own, and a secret in its file name is
// redacted from the target's name.
func TestHostileIngestedText(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	m := genuine(t, map[string]string{"compose.yaml": privileged})
	f := m["findings"].([]any)[0].(map[string]any)
	f["message"] = "ok\r## Forged heading\x1b]0;pwned\x07 \x1b[2J [click](https://evil.example) ![x](https://evil.example/p.png) @admin <b>bold</b> *em* `code` | cell \u202e"
	f["file"] = "compose.yaml\x1b[31m\x9b"
	st, err := OpenStore(ctx, filepath.Join(root, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	old := filepath.Join(root, "old", secret+".json")
	write(t, root, map[string]string{"old/" + secret + ".json": string(encode(t, genuine(t, map[string]string{"compose.yaml": "services: {}\n"})))})
	cur := filepath.Join(root, secret+".json")
	os.WriteFile(cur, encode(t, m), 0o644)
	for _, file := range []string{old, cur} {
		sum, err := Ingest(ctx, []string{file}, st, Options{})
		if err != nil || sum.Failed != 0 {
			t.Fatalf("%+v, %v", sum, err)
		}
	}
	r, err := Build(ctx, st, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 1 || len(r.Changes[0].New) == 0 {
		t.Fatalf("changes %+v", r.Changes)
	}
	out := everyFormat(t, r)
	for format, s := range out {
		if strings.Contains(s, "ghp_") {
			t.Errorf("%s prints the secret of the file name", format)
		}
	}
	for _, r := range out["table"] {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e') {
			t.Errorf("the table prints control character %U:\n%q", r, out["table"])
			break
		}
	}
	md := out["markdown"]
	if strings.ContainsAny(md, "\r\x1b\x07") {
		t.Errorf("markdown holds a control character: %q", md)
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## Forged") || strings.Contains(line, "](https") || strings.Contains(line, "<b>") || strings.Contains(line, " @admin") || strings.Contains(line, " *em*") {
			t.Errorf("markdown line carries the sandbox's syntax: %q", line)
		}
	}
}

// TestStoreDSN: a key=value connection string is no SQLite file name: it
// is refused, and neither the refusal nor a printed store name quotes it.
func TestStoreDSN(t *testing.T) {
	dsn := "host=db password=S3cret-pw dbname=fleet"
	_, err := OpenStore(context.Background(), dsn)
	if err == nil || strings.Contains(err.Error(), "S3cret") || !strings.Contains(err.Error(), "postgres://") {
		t.Errorf("error %v", err)
	}
	if got := RedactStore(dsn); strings.Contains(got, "S3cret") {
		t.Errorf("printed as %q", got)
	}
	if err := CheckStore(filepath.Join(t.TempDir(), "h=1.db")); err != nil {
		t.Errorf("a file name: %v", err)
	}
}
