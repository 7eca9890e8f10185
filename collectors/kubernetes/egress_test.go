package kubernetes

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// egressOf collects a policy file beside linkPod (app: agent, tier: sandbox
// in namespace agents) and returns the pod's egress.
func egressOf(t *testing.T, files map[string]string) *model.Egress {
	t.Helper()
	files["pod.yaml"] = linkPod
	doc := collectFiles(t, files)
	for _, w := range doc.Workloads {
		if w.File == "pod.yaml" {
			return w.Egress
		}
	}
	t.Fatal("no pod")
	return nil
}

func TestCiliumEgress(t *testing.T) {
	cnp := func(spec string) string {
		return "apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata: {name: cnp, namespace: agents}\nspec:\n  endpointSelector: {matchLabels: {app: agent}}\n" + spec
	}
	by, at := "CiliumNetworkPolicy agents/cnp", model.Loc{File: "p.yaml", Line: 5}
	tests := []struct {
		name string
		yaml string
		want *model.Egress
	}{
		{"FQDNs and DNS are named exceptions", cnp(`  egress:
    - toEndpoints: [{matchLabels: {k8s:io.kubernetes.pod.namespace: kube-system, k8s-app: kube-dns}}]
      toPorts: [{ports: [{port: "53", protocol: UDP}], rules: {dns: [{matchPattern: "*"}]}}]
    - toFQDNs: [{matchName: api.anthropic.com}, {matchPattern: "*.github.com"}]
      toPorts: [{ports: [{port: "443", protocol: TCP}]}]
`), &model.Egress{Restricted: true, By: by, Loc: at, Allow: []string{
			"pods k8s-app=kube-dns,k8s:io.kubernetes.pod.namespace=kube-system on UDP/53 (L7 rules)",
			"api.anthropic.com, *.github.com on TCP/443",
		}}},
		{"toEntities world allows all", cnp("  egress: [{toEntities: [world]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by, Loc: at, Allow: []string{"entity world (every destination outside the cluster)"}}},
		{"toEntities all allows all", cnp("  egress: [{toEntities: [cluster, all]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by, Loc: at, Allow: []string{"entity cluster, entity all (every destination outside the cluster)"}}},
		{"toEntities cluster is named", cnp("  egress: [{toEntities: [cluster, kube-apiserver]}]\n"),
			&model.Egress{Restricted: true, By: by, Loc: at, Allow: []string{"entity cluster, entity kube-apiserver"}}},
		{"toCIDRSet 0.0.0.0/0 with except allows all", cnp("  egress: [{toCIDRSet: [{cidr: 0.0.0.0/0, except: [169.254.169.254/32]}]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by, Loc: at, Allow: []string{"0.0.0.0/0 except 169.254.169.254/32"}}},
		{"matchPattern * allows all", cnp("  egress: [{toFQDNs: [{matchPattern: \"*\"}]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by, Loc: at, Allow: []string{"*"}}},
		{"world on 443 only is named", cnp("  egress: [{toEntities: [world], toPorts: [{ports: [{port: \"443\"}]}]}]\n"),
			&model.Egress{Restricted: true, By: by, Loc: at, Allow: []string{"entity world (every destination outside the cluster) on ANY/443"}, OpenPorts: []string{"ANY/443"}}},
		{"empty rule is default deny", cnp("  egress: [{}]\n"), &model.Egress{Restricted: true, By: by, Loc: at}},
		{"egressDeny wins over world", cnp("  egress: [{toEntities: [world]}]\n  egressDeny: [{toEntities: [world]}]\n"),
			&model.Egress{Restricted: true, By: by, Loc: at,
				Allow: []string{"entity world (every destination outside the cluster)"},
				Deny:  []string{"entity world (every destination outside the cluster)"}}},
		{"egressDeny of metadata keeps allow-all", cnp("  egress: [{toEntities: [world]}]\n  egressDeny: [{toCIDR: [169.254.169.254/32]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by, Loc: at,
				Allow: []string{"entity world (every destination outside the cluster)"}, Deny: []string{"169.254.169.254/32"}}},
		{"enableDefaultDeny egress false does not isolate", cnp("  enableDefaultDeny: {egress: false}\n  egress: [{toFQDNs: [{matchName: x.com}]}]\n"),
			&model.Egress{By: by, Loc: at, Allow: []string{"x.com"}}},
		{"ingress-only policy says nothing", cnp("  ingress: [{}]\n"), nil},
		{"other namespace does not apply", strings.Replace(cnp("  egress: [{}]\n"), "namespace: agents", "namespace: other", 1), nil},
		{"selector mismatch", strings.Replace(cnp("  egress: [{}]\n"), "app: agent", "app: web", 1), nil},
		{"empty egress section is unverified", cnp("  egress: []\n"), &model.Egress{By: by, Loc: at,
			Unverified: []string{by + ": an empty egress section: read as absent, as Cilium's API documents, though an old Cilium example used it for default deny"}}},
		{"clusterwide policy selects by namespace label", `apiVersion: cilium.io/v2
kind: CiliumClusterwideNetworkPolicy
metadata: {name: ccnp}
spec:
  endpointSelector: {matchLabels: {io.kubernetes.pod.namespace: agents}}
  egress: [{toEntities: [kube-apiserver]}]
`, &model.Egress{Restricted: true, By: "CiliumClusterwideNetworkPolicy ccnp", Loc: at, Allow: []string{"entity kube-apiserver"}}},
		{"host policy applies to nodes", `apiVersion: cilium.io/v2
kind: CiliumClusterwideNetworkPolicy
metadata: {name: host}
spec:
  nodeSelector: {}
  egress: [{}]
`, nil},
		{"namespace labels without the Namespace are unverified", `apiVersion: cilium.io/v2
kind: CiliumClusterwideNetworkPolicy
metadata: {name: ccnp}
spec:
  endpointSelector: {matchLabels: {io.cilium.k8s.namespace.labels.team: agents}}
  egress: [{}]
`, &model.Egress{By: "CiliumClusterwideNetworkPolicy ccnp", Loc: at, Unverified: []string{
			"CiliumClusterwideNetworkPolicy ccnp may select the pod: its selector depends on labels the scan does not know (set at run time, or the Namespace is not in the scan)",
		}}},
		{"namespace labels with the Namespace are verified", `apiVersion: v1
kind: Namespace
metadata: {name: agents, labels: {team: agents}}
---
apiVersion: cilium.io/v2
kind: CiliumClusterwideNetworkPolicy
metadata: {name: ccnp}
spec:
  endpointSelector: {matchLabels: {io.cilium.k8s.namespace.labels.team: agents}}
  egress: [{}]
`, &model.Egress{Restricted: true, By: "CiliumClusterwideNetworkPolicy ccnp", Loc: model.Loc{File: "p.yaml", Line: 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(lists(tt.want), egressOf(t, map[string]string{"p.yaml": tt.yaml})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Cilium enforces Kubernetes NetworkPolicies too: allows add up, and a
// Cilium deny takes out what a NetworkPolicy allows.
func TestCiliumWithNetworkPolicy(t *testing.T) {
	np := `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: open, namespace: agents}
spec: {podSelector: {}, policyTypes: [Egress], egress: [{}]}
`
	cnp := `apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata: {name: deny-world, namespace: agents}
spec:
  endpointSelector: {}
  egressDeny: [{toEntities: [all]}]
`
	got := egressOf(t, map[string]string{"a.yaml": np, "b.yaml": cnp})
	want := lists(&model.Egress{
		Restricted: true, Allow: []string{"any destination"},
		Deny: []string{"entity all (every destination outside the cluster)"},
		By:   "NetworkPolicy agents/open", Loc: model.Loc{File: "a.yaml", Line: 1},
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCalicoEgress(t *testing.T) {
	cal := func(name, spec string) string {
		return "apiVersion: projectcalico.org/v3\nkind: NetworkPolicy\nmetadata: {name: " + name + ", namespace: agents}\nspec:\n" + spec
	}
	by := func(n string) string { return "CalicoNetworkPolicy agents/" + n }
	at := model.Loc{File: "p.yaml", Line: 1}
	tests := []struct {
		name string
		yaml string
		want *model.Egress
	}{
		{"allow named then deny all", cal("lock", `  selector: app == 'agent'
  types: [Egress]
  egress:
    - {action: Allow, protocol: UDP, destination: {ports: [53]}}
    - {action: Allow, destination: {domains: [api.openai.com]}}
    - {action: Deny}
`), &model.Egress{Restricted: true, By: by("lock"), Loc: at, OpenPorts: []string{"UDP/53"},
			Allow: []string{"any destination on UDP/53", "api.openai.com"}, Deny: []string{"any destination"}}},
		{"types default to Egress with egress rules", cal("open", "  selector: has(tier)\n  egress: [{action: Allow}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by("open"), Loc: at, Allow: []string{"any destination"}}},
		{"no egress types: nothing", cal("ing", "  selector: all()\n  ingress: [{action: Allow}]\n"), nil},
		{"selector mismatch", cal("x", "  selector: app == 'web' || tier in {'x', 'y'}\n  types: [Egress]\n"), nil},
		{"deny all first wins over a later allow all", cal("a-deny", "  order: 10\n  selector: all()\n  types: [Egress]\n  egress: [{action: Deny}]\n") +
			"---\n" + cal("b-allow", "  order: 100\n  selector: all()\n  types: [Egress]\n  egress: [{action: Allow}]\n"),
			&model.Egress{Restricted: true, By: by("a-deny"), Loc: at, Deny: []string{"any destination"}}},
		{"allow all first wins", cal("a-deny", "  order: 100\n  selector: all()\n  types: [Egress]\n  egress: [{action: Deny}]\n") +
			"---\n" + cal("b-allow", "  order: 10\n  selector: all()\n  types: [Egress]\n  egress: [{action: Allow, destination: {notNets: [10.0.0.0/8]}}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by("b-allow"), Loc: model.Loc{File: "p.yaml", Line: 10}, Allow: []string{"except nets 10.0.0.0/8"}}},
		{"pass all goes on to the profile", cal("pass", "  selector: all()\n  types: [Egress]\n  egress: [{action: Pass}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, By: by("pass") + " (Pass: on to the namespace profile, which allows)", Loc: at}},
		{"log decides nothing", cal("log", "  selector: all()\n  types: [Egress]\n  egress: [{action: Log}]\n"),
			&model.Egress{Restricted: true, By: by("log"), Loc: at}},
		{"selector not understood", cal("bad", "  selector: app === 'agent'\n  types: [Egress]\n"),
			&model.Egress{By: by("bad"), Loc: at, Unverified: []string{by("bad") + " may select the pod: its selector depends on labels the scan does not know (set at run time, or the Namespace is not in the scan)"}}},
		{"special labels", cal("ns", "  selector: projectcalico.org/namespace == 'agents' && projectcalico.org/serviceaccount == 'default' && !has(debug)\n  types: [Egress]\n"),
			&model.Egress{Restricted: true, By: by("ns"), Loc: at}},
		{"global policy with an unknown namespace label", `apiVersion: projectcalico.org/v3
kind: GlobalNetworkPolicy
metadata: {name: g}
spec:
  namespaceSelector: team == 'agents'
  selector: all()
  types: [Egress]
`, &model.Egress{By: "CalicoGlobalNetworkPolicy g", Loc: at, Unverified: []string{"CalicoGlobalNetworkPolicy g may select the pod: its selector depends on labels the scan does not know (set at run time, or the Namespace is not in the scan)"}}},
		{"global policy on the namespace name", `apiVersion: crd.projectcalico.org/v1
kind: GlobalNetworkPolicy
metadata: {name: g}
spec:
  namespaceSelector: kubernetes.io/metadata.name == 'agents'
  selector: all()
  types: [Egress]
  egress: [{action: Allow, destination: {nets: [0.0.0.0/0]}}]
`, &model.Egress{Restricted: true, AllowAll: true, By: "CalicoGlobalNetworkPolicy g", Loc: at, Allow: []string{"nets 0.0.0.0/0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(lists(tt.want), egressOf(t, map[string]string{"p.yaml": tt.yaml})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// With Calico, a Kubernetes NetworkPolicy is a policy at order 1000: a Calico
// deny at a lower order comes first.
func TestCalicoOrdersNetworkPolicies(t *testing.T) {
	np := `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: open, namespace: agents}
spec: {podSelector: {}, policyTypes: [Egress], egress: [{}]}
`
	cal := `apiVersion: projectcalico.org/v3
kind: NetworkPolicy
metadata: {name: first, namespace: agents}
spec:
  order: 5
  selector: all()
  types: [Egress]
  egress: [{action: Deny, destination: {nets: [169.254.169.254/32]}}, {action: Deny}]
`
	got := egressOf(t, map[string]string{"a.yaml": np, "b.yaml": cal})
	want := lists(&model.Egress{
		Restricted: true, Deny: []string{"nets 169.254.169.254/32", "any destination"},
		By: "CalicoNetworkPolicy agents/first", Loc: model.Loc{File: "b.yaml", Line: 1},
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCalicoSelector(t *testing.T) {
	labels := map[string]string{"app": "agent", "tier": "sandbox-1"}
	l := func(k string) (string, bool, bool) {
		if k == "runtime" {
			return "", false, false
		}
		v, ok := labels[k]
		return v, ok, true
	}
	tests := []struct {
		sel  string
		want tri
		err  bool
	}{
		{"", yes, false},
		{"all()", yes, false},
		{"global()", no, false},
		{`app == "agent"`, yes, false},
		{"app != 'agent'", no, false},
		{"zone != 'a'", yes, false},
		{"app in {'x', 'agent'}", yes, false},
		{"app not in {'agent'}", no, false},
		{"has(app) && !has(zone)", yes, false},
		{"tier starts with 'sandbox' && tier ends with '-1' && tier contains 'box'", yes, false},
		{"(app == 'x' || app == 'agent') && tier == 'sandbox-1'", yes, false},
		{"runtime == 'x'", maybe, false},
		{"app == 'web' && runtime == 'x'", no, false},
		{"app == 'agent' || runtime == 'x'", yes, false},
		{"!has(runtime)", maybe, false},
		{"app == agent", no, true},
		{"app === 'agent'", no, true},
		{"has(app", no, true},
		{"app in {'a'", no, true},
		{"(app == 'a'", no, true},
		{"app == 'a' extra", no, true},
		{strings.Repeat("!", 200) + "has(app)", no, true},
	}
	for _, tt := range tests {
		s, err := parseCalicoSelector(tt.sel)
		if (err != nil) != tt.err {
			t.Errorf("parse %q: err %v, want error %v", tt.sel, err, tt.err)
			continue
		}
		if err == nil {
			if got := s.eval(l); got != tt.want {
				t.Errorf("%q = %d, want %d", tt.sel, got, tt.want)
			}
		}
	}
}

// The policy index tests only the policies a pod's labels can match; a pod
// matched by none of many policies gets no egress fact.
func TestPolicyIndexCandidates(t *testing.T) {
	var b strings.Builder
	for _, app := range []string{"a", "b", "c", "agent"} {
		b.WriteString("---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np-" + app + ", namespace: agents}\nspec: {podSelector: {matchLabels: {app: " + app + "}}, policyTypes: [Egress]}\n")
	}
	b.WriteString("---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: all, namespace: agents}\nspec: {podSelector: {}, policyTypes: [Egress]}\n")
	doc := collectFiles(t, map[string]string{"p.yaml": b.String(), "pod.yaml": linkPod})
	idx := newPolicyIndex(doc)
	var w *model.Workload
	for i := range doc.Workloads {
		w = &doc.Workloads[i]
	}
	var names []string
	for _, i := range idx.candidates(w) {
		names = append(names, idx.nps[i].Name)
	}
	if diff := cmp.Diff([]string{"np-agent", "all"}, names); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
}

// Egress controls of other CNIs and platforms are not evaluated: a pod they
// may select gets a note, not "declares no egress restriction".
func TestOtherPolicies(t *testing.T) {
	note := func(kind, group string) string {
		return kind + " (" + group + ") is not evaluated: what it allows or denies is not in this report"
	}
	tests := []struct {
		name string
		yaml string
		want *model.Egress
	}{
		{"GKE FQDNNetworkPolicy selecting the pod", `apiVersion: networking.gke.io/v1alpha1
kind: FQDNNetworkPolicy
metadata: {name: fqdn, namespace: agents}
spec:
  podSelector: {matchLabels: {app: agent}}
  egress: [{matches: [{name: api.example.com}]}]
`, &model.Egress{By: "FQDNNetworkPolicy agents/fqdn", Loc: model.Loc{File: "p.yaml", Line: 1},
			Unverified: []string{"FQDNNetworkPolicy agents/fqdn: " + note("FQDNNetworkPolicy", "networking.gke.io")}}},
		{"GKE FQDNNetworkPolicy selecting others", `apiVersion: networking.gke.io/v1alpha1
kind: FQDNNetworkPolicy
metadata: {name: fqdn, namespace: agents}
spec: {podSelector: {matchLabels: {app: web}}}
`, nil},
		{"OVN EgressFirewall covers its namespace", `apiVersion: k8s.ovn.org/v1
kind: EgressFirewall
metadata: {name: default, namespace: agents}
spec: {egress: [{type: Deny, to: {cidrSelector: 0.0.0.0/0}}]}
`, &model.Egress{By: "EgressFirewall agents/default", Loc: model.Loc{File: "p.yaml", Line: 1},
			Unverified: []string{"EgressFirewall agents/default: " + note("EgressFirewall", "k8s.ovn.org")}}},
		{"AdminNetworkPolicy may select any pod", `apiVersion: policy.networking.k8s.io/v1alpha1
kind: AdminNetworkPolicy
metadata: {name: anp}
spec: {priority: 10, subject: {namespaces: {}}}
`, &model.Egress{By: "AdminNetworkPolicy anp", Loc: model.Loc{File: "p.yaml", Line: 1},
			Unverified: []string{"AdminNetworkPolicy anp may select the pod: " + note("AdminNetworkPolicy", "policy.networking.k8s.io")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(lists(tt.want), egressOf(t, map[string]string{"p.yaml": tt.yaml})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A policy repeated in many files (each repository of a scan ships the same
// default-deny) is tested once: the pod's egress is what one copy gives,
// cited at the first copy, and a scan of N copies and N pods does not test
// N×N pairs.
func TestPolicyIndexSameAs(t *testing.T) {
	np := func(name string) string {
		return "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: " + name + ", namespace: agents}\nspec: {podSelector: {}, policyTypes: [Egress], egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]}\n"
	}
	one := collectFiles(t, map[string]string{"a/np.yaml": np("deny-a"), "pod.yaml": linkPod})
	many := collectFiles(t, map[string]string{"a/np.yaml": np("deny-a"), "b/np.yaml": np("deny-b"), "c/np.yaml": np("deny-c"), "pod.yaml": linkPod})
	idx := newPolicyIndex(many)
	var w *model.Workload
	for i := range many.Workloads {
		w = &many.Workloads[i]
	}
	if got := idx.candidates(w); len(got) != 1 {
		t.Errorf("candidates %v, want the first copy only", got)
	}
	if diff := cmp.Diff(one.Workloads[len(one.Workloads)-1].Egress, w.Egress); diff != "" {
		t.Errorf("egress with copies (-one +many):\n%s", diff)
	}
	if w.Egress == nil || w.Egress.File != "a/np.yaml" {
		t.Errorf("egress %+v, want it cited at a/np.yaml", w.Egress)
	}
}

// Calico applies policies of one order by name: copies are not folded, or
// a copy's place in that order (and the pod's egress) would change.
func TestPolicyIndexCalicoCopiesKept(t *testing.T) {
	cal := func(name, action string) string {
		return "apiVersion: projectcalico.org/v3\nkind: NetworkPolicy\nmetadata: {name: " + name + ", namespace: agents}\nspec:\n  order: 100\n  selector: all()\n  types: [Egress]\n  egress: [{action: " + action + "}]\n"
	}
	doc := collectFiles(t, map[string]string{"a/p.yaml": cal("z-deny", "Deny"), "b/p.yaml": cal("a-deny", "Deny"), "c/p.yaml": cal("m-allow", "Allow"), "pod.yaml": linkPod})
	var w *model.Workload
	for i := range doc.Workloads {
		w = &doc.Workloads[i]
	}
	if w.Egress == nil || w.Egress.AllowAll || !strings.Contains(w.Egress.By, "a-deny") {
		t.Errorf("egress %+v; want a-deny (first by name) to deny", w.Egress)
	}
}
