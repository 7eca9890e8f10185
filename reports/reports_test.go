package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/internal/sarifcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/policies"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

func sample() *Report {
	long := strings.Repeat("A long description. ", 80)
	return &Report{
		Tool:       Tool{Name: "sandbox-audit", Version: "v1.2.3"},
		Targets:    []string{"repo"},
		Verdict:    "convenience",
		Properties: PropertiesFrom(map[string]policies.Property{"network": {Status: "fail", Score: 70, Findings: 1}, "disposable": {Status: "unknown"}}),
		Gate:       policies.Gate{Passed: false, FailOn: "high", Reasons: []string{"1 finding(s) at or above high"}},
		Findings: []rules.Finding{
			{RuleID: "host-network", Title: "Host network", Property: "network", Severity: "high", Category: "posture", Message: "svc | uses <host> network", File: "deploy/my app/compose.yaml", Line: 0, Fingerprint: "aaaaaaaaaaaaaaaa"},
			{RuleID: "host-network", Title: "Host network", Property: "network", Severity: "high", Category: "posture", Message: "waived one", File: "b.yaml", Line: 3, Fingerprint: "bbbbbbbbbbbbbbbb", Suppression: &rules.Suppression{Kind: "waiver", Reason: "legacy", Expires: "2099-01-01"}},
			{RuleID: "dep-vulnerable", Title: "Vulnerable dependency", Property: "review", Severity: "critical", Category: "dependencies", Message: "lodash 4.17.20", File: "package-lock.json", Line: 12, Fingerprint: "cccccccccccccccc"},
		},
		Errors: []model.Error{{File: "broken.yaml", Line: 4, Message: "yaml: bad"}},
		Skipped: []model.SkippedObject{
			{APIVersion: "v1", Kind: "Service", Name: "a/web", Reason: "holds no pod spec", Count: 12, Loc: model.Loc{File: "k8s/all.yaml", Line: 1}},
			{APIVersion: "kubevirt.io/v1", Kind: "VirtualMachine", Name: "a/vm", Reason: "no pod spec found", Count: 1, Loc: model.Loc{File: "k8s/vm.yaml", Line: 1}},
		},
		Rules: []rules.Meta{
			{ID: "host-network", Title: "Host network", Description: long, Property: "network", Severity: "high", Category: "posture", Remediation: "r", Related: []rules.Resource{{Ref: "https://example.com/a"}}},
			{ID: "dep-vulnerable", Title: "Vulnerable dependency", Description: "d", Property: "review", Severity: "critical", Category: "dependencies", Remediation: "r"},
			{ID: "unused-info", Title: "Info", Description: "d", Property: "review", Severity: "info", Category: "posture", Remediation: "r"},
		},
		HelpBase: "https://example.com/docs/rules/",
	}
}

func TestSARIFValidAndSplitByCategory(t *testing.T) {
	var buf bytes.Buffer
	if err := (SARIF{}).Write(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	if p := sarifcheck.Validate(buf.Bytes()); len(p) > 0 {
		t.Fatalf("invalid SARIF:\n%s", strings.Join(p, "\n"))
	}
	var doc struct {
		Runs []struct {
			AutomationDetails struct{ ID string } `json:"automationDetails"`
			Results           []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []any  `json:"suppressions"`
				Locations    []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 2 || doc.Runs[0].AutomationDetails.ID != "sandbox-audit/posture/" || doc.Runs[1].AutomationDetails.ID != "sandbox-audit/deps/" {
		t.Fatalf("runs/categories wrong: %+v", doc.Runs)
	}
	r0 := doc.Runs[0].Results[0]
	if got := r0.Locations[0].PhysicalLocation.ArtifactLocation.URI; got != "deploy/my%20app/compose.yaml" {
		t.Errorf("uri = %q", got)
	}
	if got := r0.Locations[0].PhysicalLocation.Region.StartLine; got != 1 {
		t.Errorf("line 0 must become startLine 1, got %d", got)
	}
	if len(doc.Runs[0].Results[1].Suppressions) != 1 {
		t.Errorf("waived finding has no suppression")
	}
	if len(doc.Runs[1].Results) != 1 || doc.Runs[1].Results[0].RuleID != "dep-vulnerable" {
		t.Errorf("deps run = %+v", doc.Runs[1].Results)
	}
}

func TestEveryFormatRenders(t *testing.T) {
	for _, f := range Formats {
		w, err := New(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := w.Write(&buf, sample()); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out := buf.String()
		if !strings.Contains(out, "broken.yaml") {
			t.Errorf("%s: errors[] entry missing", f)
		}
		if f == "markdown" && !strings.Contains(out, `svc \| uses &lt;host&gt; network`) {
			t.Errorf("markdown not escaped:\n%s", out)
		}
		if f == "table" && strings.Contains(out, "\x1b[") {
			t.Errorf("table has colors with Color off")
		}
	}
	if _, err := New("xml", Options{}); err == nil {
		t.Fatal("unknown format accepted")
	}
}

func TestSortFindings(t *testing.T) {
	fs := []rules.Finding{{Severity: "low", File: "a"}, {Severity: "critical", File: "z"}, {Severity: "high", File: "b", Line: 2}, {Severity: "high", File: "b", Line: 1}}
	SortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Severity+":"+f.File)
	}
	if strings.Join(got, ",") != "critical:z,high:b,high:b,low:a" || fs[1].Line != 1 {
		t.Fatalf("order = %v", got)
	}
}

// TestJSONStreamsSameBytes: the streamed JSON report is byte for byte what
// encoding/json's indenting Encoder gives for the whole report, with
// findings, without, and with the Environment and Dependencies sections.
func TestJSONStreamsSameBytes(t *testing.T) {
	full := sample()
	full.Environment = &model.Live{}
	full.Dependencies = &model.Deps{}
	none := sample()
	none.Findings = []rules.Finding{}
	withWorkloads := sample()
	withWorkloads.Workloads = []Workload{{ID: "compose:a.yaml:web", Name: "web", Source: "compose", File: "a.yaml", Line: 2, Role: "agent", Reason: "it runs <the> agent", Judged: true}, {ID: "k", Name: "db"}}
	noFindings := sample()
	noFindings.Workloads, noFindings.Findings = withWorkloads.Workloads, []rules.Finding{}
	emptyWorkloads := sample()
	emptyWorkloads.Workloads = []Workload{}
	for name, r := range map[string]*Report{"sample": sample(), "no findings": none, "all sections": full, "workloads": withWorkloads, "workloads, no findings": noFindings, "no workloads": emptyWorkloads} {
		var want bytes.Buffer
		if err := encodeWhole(&want, r); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := (JSON{}).Write(&got, r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: streamed JSON differs:\n got: %s\nwant: %s", name, got.String(), want.String())
		}
	}
}

// encodeWhole is the JSON report as one Encoder call for the whole
// document: what JSON.Write did before findings were streamed.
func encodeWhole(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// BenchmarkJSON compares the streamed report with its peer, the whole
// document encoded at once, on 20,000 findings.
func BenchmarkJSON(b *testing.B) {
	r := sample()
	for len(r.Findings) < 20000 {
		r.Findings = append(r.Findings, r.Findings[:3]...)
	}
	for _, c := range []struct {
		name  string
		write func(io.Writer, *Report) error
	}{{"streamed", JSON{}.Write}, {"whole-document", encodeWhole}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSummaryLimit: a summary lists Limit findings and counts the rest; the
// full table and Markdown list every one.
func TestSummaryLimit(t *testing.T) {
	r := sample()
	base := r.Findings[0]
	r.Findings = nil
	for i := range 40 {
		f := base
		f.Line = i + 1
		r.Findings = append(r.Findings, f)
	}
	for _, format := range []string{"table", "markdown"} {
		for _, c := range []struct {
			limit, rows int
			more        string
		}{{0, 40, ""}, {30, 30, "and 10 more finding(s)"}, {40, 40, ""}} {
			w, _ := New(format, Options{Limit: c.limit})
			var buf bytes.Buffer
			if err := w.Write(&buf, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if n := strings.Count(out, "compose.yaml:"); n != c.rows {
				t.Errorf("%T limit %d: %d findings listed, want %d", w, c.limit, n, c.rows)
			}
			if c.more != "" && !strings.Contains(out, c.more) {
				t.Errorf("%T limit %d: no %q", w, c.limit, c.more)
			}
			if c.more == "" && strings.Contains(out, "more finding") {
				t.Errorf("%T limit %d: counts findings left out", w, c.limit)
			}
		}
	}
}

func TestSkippedLine(t *testing.T) {
	var sk []model.SkippedObject
	for i, k := range []string{"Service", "ConfigMap", "Role", "RoleBinding", "Ingress", "Secret", "Endpoints", "LimitRange", "ResourceQuota", "PriorityClass"} {
		sk = append(sk, model.SkippedObject{Kind: k, Reason: "holds no pod spec", Count: 10 - i})
	}
	sk = append(sk, model.SkippedObject{Kind: "Service", Reason: "holds no pod spec", Count: 5, APIVersion: "v1"})
	got := skippedLine(sk)
	want := "60 Kubernetes objects not read as workloads: Service ×15, ConfigMap ×9, Role ×8, RoleBinding ×7, Ingress ×6, Secret ×5, Endpoints ×4, LimitRange ×3, 2 more kinds"
	if got != want {
		t.Errorf("skippedLine =\n %s\nwant\n %s", got, want)
	}
	if got := skippedLine(nil); got != "" {
		t.Errorf("no skipped objects gave %q", got)
	}
	one := skippedLine([]model.SkippedObject{{Kind: "SandboxClaim", Reason: "its SandboxTemplate is not in the scan", Count: 1}})
	if one != "1 Kubernetes object not read as a workload: SandboxClaim ×1 (its SandboxTemplate is not in the scan)" {
		t.Errorf("one = %q", one)
	}
	// A file of another format read but not audited: a line of its own,
	// after the Kubernetes line, its path made printable.
	mixed := skippedLine([]model.SkippedObject{
		{Kind: "Cursor cloud agent environment", Reason: "its network is set elsewhere", Count: 1, Format: "cursor", Loc: model.Loc{File: ".cursor/environment.json\x1b[2J"}},
		{Kind: "Service", Reason: "holds no pod spec", Count: 2, APIVersion: "v1"},
	})
	if want := "2 Kubernetes objects not read as workloads: Service ×2\nRead, not audited: Cursor cloud agent environment .cursor/environment.json [2J (its network is set elsewhere)"; mixed != want {
		t.Errorf("mixed =\n %q\nwant\n %q", mixed, want)
	}
	for _, w := range []Writer{Table{}, Markdown{}} {
		var buf bytes.Buffer
		if err := w.Write(&buf, sample()); err != nil {
			t.Fatal(err)
		}
		line := "13 Kubernetes objects not read as workloads: Service ×12, VirtualMachine ×1 (no pod spec found)"
		if _, md := w.(Markdown); md {
			line = MarkdownEscape(line) // a kind is the scanned file's: escaped
		}
		if !strings.Contains(buf.String(), line) {
			t.Errorf("%T output lacks the skipped line:\n%s", w, buf.String())
		}
	}
}

// TestUnreadPropertiesSaidInOneLine: the table and Markdown say in one line
// which properties are unknown because of which unread files; JSON lists
// them per property and per errors[] entry.
func TestUnreadPropertiesSaidInOneLine(t *testing.T) {
	unread := []string{"k8s/a.yaml", "k8s/b.yaml", "k8s/c.yaml", "k8s/d.yaml"}
	r := &Report{
		Tool: Tool{Name: "sandbox-audit", Version: "v1"}, Targets: []string{"repo"}, Verdict: "unknown",
		Properties: PropertiesFrom(map[string]policies.Property{
			"disposable":  {Status: "fail", Score: 50, Findings: 1, Unread: unread},
			"network":     {Status: "unknown", Score: 100, Unread: unread},
			"credentials": {Status: "unknown", Score: 100, Unread: []string{"k8s/a.yaml"}},
			"review":      {Status: "unknown", Unread: []string{}},
		}),
		Gate:     policies.Gate{Passed: true, FailOn: "high", Reasons: []string{}},
		Findings: []rules.Finding{},
		Errors:   []model.Error{{File: "k8s/a.yaml", Line: 2, Message: "kubernetes: line 2: parse yaml: bad", Kind: "kubernetes", Properties: []string{"disposable", "network", "credentials"}}},
	}
	const line = "Unknown, not read: network, credentials ← k8s/a.yaml, k8s/b.yaml, k8s/c.yaml and 1 more"
	for _, f := range []string{"table", "markdown"} {
		w, _ := New(f, Options{})
		var buf bytes.Buffer
		if err := w.Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Count(out, line) != 1 {
			t.Errorf("%s: want the line %q once in:\n%s", f, line, out)
		}
		if !strings.Contains(out, "UNKNOWN — nothing found to judge: review; not all read: network, credentials") {
			t.Errorf("%s: verdict line does not separate unread from nothing found:\n%s", f, out)
		}
		if !strings.Contains(out, "bad [unread for: disposable, network, credentials]") {
			t.Errorf("%s: the errors entry does not name its properties:\n%s", f, out)
		}
	}
	var buf bytes.Buffer
	if err := (JSON{}).Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties map[string]struct{ Unread []string }
		Errors     []struct {
			Kind       string
			Properties []string
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Properties["credentials"].Unread; len(got) != 1 || got[0] != "k8s/a.yaml" {
		t.Errorf("properties.credentials.unread = %v", got)
	}
	if doc.Properties["review"].Unread == nil || !strings.Contains(buf.String(), `"unread": []`) {
		t.Errorf("an empty unread list must be [] in JSON:\n%s", buf.String())
	}
	if len(doc.Errors) != 1 || doc.Errors[0].Kind != "kubernetes" || len(doc.Errors[0].Properties) != 3 {
		t.Errorf("errors = %+v", doc.Errors)
	}

	// Everything read: no line.
	r.Properties = PropertiesFrom(map[string]policies.Property{"network": {Status: "unknown"}})
	r.Errors = nil
	var tbl bytes.Buffer
	if err := (Table{}).Write(&tbl, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tbl.String(), "not read") {
		t.Errorf("a line about unread files with none unread:\n%s", tbl.String())
	}
}

// TestTableNoTerminalEscapes: what a scanned file wrote (a service name in
// a message, a file name, an error) reaches the terminal without the
// control characters that would clear it, retitle it or write to the
// clipboard (OSC 52); colour, the writer's own, still comes through.
func TestTableNoTerminalEscapes(t *testing.T) {
	r := sample()
	r.Targets = []string{"repo\x1b]0;owned\x07"}
	r.Findings[0].Message = "svc\x1b[2J\x1b]52;c;ZWNobyBwd25lZA==\x07 uses host network"
	r.Findings[0].File = "a\x9bcompose.yaml"
	r.Errors[0].Message = "yaml: bad\x1b[31m"
	for _, color := range []bool{false, true} {
		var buf bytes.Buffer
		if err := (Table{Options{Color: color}}).Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, bad := range []string{"\x1b[2J", "\x1b]", "\x07", "\x9b", "bad\x1b[31m"} {
			if strings.Contains(out, bad) {
				t.Errorf("color %v: table output holds %q", color, bad)
			}
		}
		if color && !strings.Contains(out, "\x1b[") {
			t.Error("colour lost")
		}
	}
}

// reusing is a FindingStore that hands out each finding in one variable,
// as a compact store does.
type reusing []rules.Finding

func (s reusing) Len() int { return len(s) }

func (s reusing) Each(fn func(*rules.Finding) error) error {
	var f rules.Finding
	for _, x := range s {
		f = x
		if err := fn(&f); err != nil {
			return err
		}
	}
	return nil
}

// TestStoredFindings: every format renders a report whose findings are in
// a store as it renders them in Findings, in full and as a summary.
func TestStoredFindings(t *testing.T) {
	for _, format := range Formats {
		for _, limit := range []int{0, 1, 2} {
			list := sample()
			for i := range 3 {
				f := list.Findings[i%3]
				f.Line += 10
				list.Findings = append(list.Findings, f)
			}
			stored := sample()
			stored.Findings, stored.Stored = nil, reusing(list.Findings)
			var want, got bytes.Buffer
			w, _ := New(format, Options{Limit: limit})
			if err := w.Write(&want, list); err != nil {
				t.Fatal(err)
			}
			if err := w.Write(&got, stored); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, limit %d: stored findings render otherwise:\n got: %s\nwant: %s", format, limit, got.String(), want.String())
			}
		}
	}
}
