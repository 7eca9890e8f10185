package kubernetes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// billionLaughs nests levels of ten aliases each: 10^levels nodes once
// expanded, a few hundred bytes written.
func billionLaughs(levels int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: lol}\nx0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		p := "*x" + string(rune('0'+i-1))
		b.WriteString("x" + string(rune('0'+i)) + ": &x" + string(rune('0'+i)) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	b.WriteString("spec:\n  containers: [{name: c, args: *x" + string(rune('0'+levels)) + "}]\n")
	return b.String()
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		wantLine int
	}{
		{"bad indentation", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n   bad: indent\n", 5},
		{"unterminated flow sequence", "apiVersion: v1\nkind: Pod\nspec: {containers: [\n", 3},
		{"binary junk", "\x00\x01\x02\xfe\xff\x00garbage", 0},
		{"tab indentation", "apiVersion: v1\nkind: Pod\nspec:\n\tcontainers: []\n", 4},
		{"billion laughs", billionLaughs(9), 8},
		{"anchor containing itself", "apiVersion: v1\nkind: Pod\nspec: &s {containers: [{name: c}], again: *s}\n", 3},
		{"merge-key bomb", mergeBomb(), 0},
		{"duplicate in a large mapping", "apiVersion: v1\nkind: ConfigMap\ndata:\n" + manyKeys(20) + "  k3: again\n", 24},
		{"two objects without ---", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n\napiVersion: v1\nkind: Pod\n", 6},
		{"helm template", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}\n{{- if .Values.x }}\nspec: {}\n{{- end }}\n", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			doc := &model.Document{}
			err := Collector{}.Collect(context.Background(), "m.yaml", []byte(tt.data), doc)
			if time.Since(start) > 2*time.Second {
				t.Errorf("took %v; malformed input must fail fast", time.Since(start))
			}
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Collect() = %v, want a *collectors.ParseError", err)
			}
			if tt.wantLine != 0 && pe.Line != tt.wantLine {
				t.Errorf("ParseError line = %d, want %d (%v)", pe.Line, tt.wantLine, err)
			}
			if len(doc.Workloads) != 0 {
				t.Errorf("malformed document produced workloads: %+v", doc.Workloads)
			}
			if strings.Contains(tt.data, "{{") != strings.Contains(err.Error(), "helm template") {
				t.Errorf("error %q: the Helm hint belongs to templates only", err)
			}
		})
	}
}

// manyKeys writes n distinct keys k0…k(n-1) of a mapping indented by two.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  k%d: v\n", i)
	}
	return b.String()
}

// mergeBomb nests merge keys instead of sequences.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}\n")
	for i := 1; i <= 9; i++ {
		p := "*m" + string(rune('0'+i-1))
		b.WriteString("m" + string(rune('0'+i)) + ": &m" + string(rune('0'+i)) + " {<<: [" + strings.Repeat(p+", ", 9) + p + "], k: [" + strings.Repeat(p+", ", 9) + p + "]}\n")
	}
	return b.String()
}

// A broken later document does not take the earlier ones' facts away.
func TestPartialFile(t *testing.T) {
	data := "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c}]}\n---\nkind: [\n"
	doc := &model.Document{}
	err := Collector{}.Collect(context.Background(), "m.yaml", []byte(data), doc)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 6 {
		t.Fatalf("Collect() = %v, want ParseError at line 6", err)
	}
	if len(doc.Workloads) != 1 || doc.Workloads[0].ID != "k8s:Pod/default/ok/c" {
		t.Errorf("workloads = %+v, want the first document's pod", doc.Workloads)
	}
}

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		"k8s/pod.yaml": true, "deploy.YML": true, "a/b/c.yml": true,
		"values.json": false, "yaml": false, "Dockerfile": false, "x.yaml.bak": false,
	} {
		if got := (Collector{}).Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func FuzzCollect(f *testing.F) {
	f.Add([]byte(linkPod))
	f.Add([]byte(billionLaughs(4)))
	f.Add([]byte(mergeBomb()))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, spec: {containers: [{}]}}]\n"))
	fuzzcheck.Seed(f, []string{"../../fixtures/kubernetes/*.yaml", "../../fixtures/kubernetes/*/*/*.yaml", "../../fixtures/scenarios/k8s-gvisor-hardened/*.yaml"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		// fuzzcheck links the document, as the scan does.
		doc, _ := fuzzcheck.Collect(t, Collector{}, "f.yaml", data, fuzzcheck.Options{})
		for _, w := range doc.Workloads {
			if w.Source != "kubernetes" || !strings.HasPrefix(w.ID, "k8s:") || w.File != "f.yaml" || w.Line < 1 {
				t.Fatalf("inconsistent workload %+v", w)
			}
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" || c.Line < 1 {
				t.Fatalf("inconsistent credential %+v", c)
			}
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Fatalf("document does not marshal: %v", err)
		}
	})
}

// FuzzCalicoSelector: the selector parser never panics or loops, and what
// it accepts evaluates to one of the three values.
func FuzzCalicoSelector(f *testing.F) {
	for _, s := range []string{"", "all()", "app == 'a' && !has(b)", "k in {'a', \"b\"} || (x != 'y')", "tier starts with 'x'", "((((", "has(", "a not in {}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := parseCalicoSelector(s)
		if err != nil {
			return
		}
		l := func(k string) (string, bool, bool) { return "v", k == "app", k != "unknown" }
		if r := sel.eval(l); r != yes && r != no && r != maybe {
			t.Fatalf("%q evaluated to %d", s, r)
		}
	})
}

// TestDuplicateKeyDocumentSkipped: two objects joined by a missing --- are
// one document that defines its keys twice: it is refused at the second
// key, and the documents after it are still read (the file is partly read).
func TestDuplicateKeyDocumentSkipped(t *testing.T) {
	const src = `apiVersion: v1
kind: Namespace
metadata:
  name: a
apiVersion: v1
kind: Namespace
metadata:
  name: b
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: deny-egress
  namespace: b
spec:
  podSelector: {}
  policyTypes: [Egress]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: b}
spec:
  containers: [{name: c, image: x}]
`
	var doc model.Document
	err := Collector{}.Collect(context.Background(), "k8s.yaml", []byte(src), &doc)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 5 || !strings.Contains(err.Error(), "duplicate key") {
		t.Fatalf("Collect() = %v, want the duplicate key at line 5", err)
	}
	if len(doc.NetworkPolicies) != 1 || len(doc.Workloads) != 1 {
		t.Fatalf("read %d policies, %d workloads after the refused document; want 1 and 1", len(doc.NetworkPolicies), len(doc.Workloads))
	}
	Collector{}.Link(&doc)
	if eg := doc.Workloads[0].Egress; eg == nil || !eg.Restricted {
		t.Errorf("the pod's egress = %+v, want restricted by deny-egress", eg)
	}
}
