package kubernetes

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const linkPod = `apiVersion: v1
kind: Pod
metadata:
  name: agent
  namespace: agents
  labels: {app: agent, tier: sandbox}
spec:
  containers: [{name: c}]
`

func TestLinkEgress(t *testing.T) {
	np := func(spec string) string {
		return "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np, namespace: agents}\nspec:\n" + spec
	}
	at := model.Loc{File: "np.yaml", Line: 1}
	deny := &model.Egress{Restricted: true, Allow: []string{}, By: "NetworkPolicy agents/np", Loc: at}
	tests := []struct {
		name   string
		policy string
		want   *model.Egress
	}{
		{"empty podSelector selects all, no rules denies all", np("  podSelector: {}\n  policyTypes: [Egress]\n"), deny},
		{"matchLabels match", np("  podSelector: {matchLabels: {app: agent}}\n  policyTypes: [Egress]\n"), deny},
		{"matchLabels mismatch", np("  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Egress]\n"), nil},
		{"In", np("  podSelector: {matchExpressions: [{key: tier, operator: In, values: [sandbox, x]}]}\n  policyTypes: [Egress]\n"), deny},
		{"In mismatch", np("  podSelector: {matchExpressions: [{key: tier, operator: In, values: [x]}]}\n  policyTypes: [Egress]\n"), nil},
		{"NotIn", np("  podSelector: {matchExpressions: [{key: tier, operator: NotIn, values: [x]}]}\n  policyTypes: [Egress]\n"), deny},
		{"NotIn mismatch", np("  podSelector: {matchExpressions: [{key: tier, operator: NotIn, values: [sandbox]}]}\n  policyTypes: [Egress]\n"), nil},
		{"NotIn on a missing label matches", np("  podSelector: {matchExpressions: [{key: zone, operator: NotIn, values: [a]}]}\n  policyTypes: [Egress]\n"), deny},
		{"Exists", np("  podSelector: {matchExpressions: [{key: app, operator: Exists}]}\n  policyTypes: [Egress]\n"), deny},
		{"Exists mismatch", np("  podSelector: {matchExpressions: [{key: zone, operator: Exists}]}\n  policyTypes: [Egress]\n"), nil},
		{"DoesNotExist", np("  podSelector: {matchExpressions: [{key: zone, operator: DoesNotExist}]}\n  policyTypes: [Egress]\n"), deny},
		{"DoesNotExist mismatch", np("  podSelector: {matchExpressions: [{key: app, operator: DoesNotExist}]}\n  policyTypes: [Egress]\n"), nil},
		{"unknown operator selects nothing", np("  podSelector: {matchExpressions: [{key: app, operator: Equals, values: [agent]}]}\n  policyTypes: [Egress]\n"), nil},
		{"ingress only", np("  podSelector: {}\n  policyTypes: [Ingress]\n  egress: [{}]\n"), nil},
		{"no policyTypes but egress rules", np("  podSelector: {}\n  egress: [{ports: [{port: 443}]}]\n"),
			&model.Egress{Restricted: true, Allow: []string{"any destination on TCP/443"}, OpenPorts: []string{"TCP/443"}, By: "NetworkPolicy agents/np", Loc: at}},
		{"egress [{}] allows all", np("  podSelector: {}\n  policyTypes: [Egress]\n  egress: [{}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, Allow: []string{"any destination"}, By: "NetworkPolicy agents/np", Loc: at}},
		{"0.0.0.0/0 except metadata still allows all", np("  podSelector: {}\n  policyTypes: [Egress]\n  egress: [{to: [{ipBlock: {cidr: 0.0.0.0/0, except: [169.254.169.254/32]}}]}]\n"),
			&model.Egress{Restricted: true, AllowAll: true, Allow: []string{"0.0.0.0/0 except 169.254.169.254/32"}, By: "NetworkPolicy agents/np", Loc: at}},
		{"peers and ports", np(`  podSelector: {}
  policyTypes: [Egress]
  egress:
    - to: [{ipBlock: {cidr: 10.0.0.0/8}}, {namespaceSelector: {}}, {podSelector: {matchLabels: {app: proxy}}}]
      ports: [{protocol: TCP, port: 3128}, {protocol: UDP, port: 32000, endPort: 32100}, {protocol: SCTP}]
`), &model.Egress{Restricted: true, Allow: []string{
			"10.0.0.0/8 on TCP/3128, UDP/32000-32100, SCTP/*",
			"namespaces (all) on TCP/3128, UDP/32000-32100, SCTP/*",
			"pods app=proxy in the same namespace on TCP/3128, UDP/32000-32100, SCTP/*",
		}, By: "NetworkPolicy agents/np", Loc: at}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collectFiles(t, map[string]string{"np.yaml": tt.policy, "pod.yaml": linkPod})
			if diff := cmp.Diff(lists(tt.want), doc.Workloads[0].Egress); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// lists gives an expected egress fact the empty lists Link always sets.
func lists(e *model.Egress) *model.Egress {
	if e == nil {
		return nil
	}
	c := *e
	if c.Allow == nil {
		c.Allow = []string{}
	}
	if c.Deny == nil {
		c.Deny = []string{}
	}
	if c.OpenPorts == nil {
		c.OpenPorts = []string{}
	}
	if c.Unverified == nil {
		c.Unverified = []string{}
	}
	return &c
}

func TestLinkEgressMerges(t *testing.T) {
	policies := `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: dns, namespace: agents}
spec:
  podSelector: {}
  policyTypes: [Egress]
  egress: [{ports: [{protocol: UDP, port: 53}]}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: open, namespace: agents}
spec:
  podSelector: {matchLabels: {tier: sandbox}}
  policyTypes: [Egress]
  egress: [{}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: elsewhere, namespace: other}
spec:
  podSelector: {}
  policyTypes: [Egress]
---
apiVersion: crd.projectcalico.org/v1
kind: NetworkPolicy
metadata: {name: calico, namespace: agents}
spec: {selector: all(), types: [Egress]}
`
	hostNet := `apiVersion: v1
kind: Pod
metadata: {name: h, namespace: agents}
spec:
  hostNetwork: true
  containers: [{name: c}]
`
	doc := collectFiles(t, map[string]string{"np.yaml": policies, "pod.yaml": linkPod, "zhost.yaml": hostNet})
	want := &model.Egress{
		Restricted: true, AllowAll: true, Allow: []string{"any destination on UDP/53", "any destination"},
		OpenPorts: []string{"UDP/53"},
		By:        "NetworkPolicy agents/open", Loc: model.Loc{File: "np.yaml", Line: 9},
	}
	if diff := cmp.Diff(lists(want), doc.Workloads[0].Egress); diff != "" {
		t.Errorf("merged egress (-want +got):\n%s", diff)
	}
	if doc.Workloads[1].Egress != nil {
		t.Errorf("hostNetwork pod got egress %+v; policies do not apply to it", doc.Workloads[1].Egress)
	}
	if len(doc.NetworkPolicies) != 4 || doc.NetworkPolicies[3].Kind != "CalicoNetworkPolicy" {
		t.Errorf("want 4 NetworkPolicies, Calico's read as its own kind, got %+v", doc.NetworkPolicies)
	}
	// Link runs once per scan, but running it again must not change facts.
	before := *doc.Workloads[0].Egress
	Collector{}.Link(doc)
	if diff := cmp.Diff(before, *doc.Workloads[0].Egress); diff != "" {
		t.Errorf("second Link changed egress (-want +got):\n%s", diff)
	}
}
