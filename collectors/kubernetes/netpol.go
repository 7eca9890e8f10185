package kubernetes

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// networkPolicy records a NetworkPolicy with what its egress rules allow.
func (f *file) networkPolicy(o object) {
	spec := get(o.node, "spec")
	np := model.NetworkPolicy{
		Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node),
		PodSelector: selector(get(spec, "podSelector")),
		Kind:        "NetworkPolicy", APIVersion: o.apiVersion,
	}
	egress := items(get(spec, "egress"))
	np.EgressRules = len(egress)
	np.PolicyTypes = strList(get(spec, "policyTypes"))
	if len(np.PolicyTypes) == 0 {
		// The API server's defaulting: Ingress always, Egress when the
		// policy has egress rules.
		np.PolicyTypes = []string{"Ingress"}
		if len(egress) > 0 {
			np.PolicyTypes = append(np.PolicyTypes, "Egress")
		}
	}
	np.IsolatesEgress = slices.Contains(np.PolicyTypes, "Egress")
	for _, r := range egress {
		all, allow, open := egressRuleOpen(r)
		np.EgressAllowAll = np.EgressAllowAll || all
		np.EgressAllow = append(np.EgressAllow, allow...)
		for i, a := range allow {
			pr := model.PolicyRule{Action: "allow", All: all, Text: a, Loc: f.loc(r)}
			if i == 0 {
				pr.OpenPorts = open
			}
			np.Rules = append(np.Rules, pr)
		}
	}
	f.doc.NetworkPolicies = append(f.doc.NetworkPolicies, np)
}

// selector reads a label selector.
func selector(n *yaml.Node) model.LabelSelector {
	s := model.LabelSelector{MatchLabels: strMap(get(n, "matchLabels"))}
	for _, e := range items(get(n, "matchExpressions")) {
		s.MatchExpressions = append(s.MatchExpressions, model.LabelRequirement{
			Key: str(get(e, "key")), Operator: str(get(e, "operator")), Values: strList(get(e, "values")),
		})
	}
	return s
}

// egressRule reads one egress rule: whether it opens every destination, and
// readable exceptions. A rule without peers allows any destination (on its
// ports when it lists some); 0.0.0.0/0 counts as every destination even with
// an except list, since that still opens the internet.
func egressRule(r *yaml.Node) (all bool, allow []string) {
	all, allow, _ = egressRuleOpen(r)
	return all, allow
}

// egressRuleOpen is egressRule plus the ports on which the rule opens every
// destination (no peers, or a 0.0.0.0/0 block, with a ports list).
func egressRuleOpen(r *yaml.Node) (all bool, allow, openPorts []string) {
	var ports []string
	for _, p := range items(get(r, "ports")) {
		ports = append(ports, portSummary(p))
	}
	var peers []string
	openCIDR := false
	for _, p := range items(get(r, "to")) {
		s, open := peerSummary(p)
		peers = append(peers, s)
		openCIDR = openCIDR || open
	}
	on := ""
	if len(ports) > 0 {
		on = " on " + strings.Join(ports, ", ")
	}
	if len(peers) == 0 {
		return len(ports) == 0, []string{"any destination" + on}, ports
	}
	for _, p := range peers {
		allow = append(allow, p+on)
	}
	if openCIDR {
		openPorts = ports
	}
	return openCIDR && len(ports) == 0, allow, openPorts
}

// peerSummary describes a NetworkPolicyPeer, and whether it is an ipBlock
// spanning the whole address space.
func peerSummary(p *yaml.Node) (string, bool) {
	if b := get(p, "ipBlock"); b != nil {
		cidr := str(get(b, "cidr"))
		s := cidr
		if ex := strList(get(b, "except")); len(ex) > 0 {
			s += " except " + strings.Join(ex, ", ")
		}
		return s, cidr == "0.0.0.0/0" || cidr == "::/0"
	}
	ns, hasNS := get(p, "namespaceSelector"), get(p, "namespaceSelector") != nil
	pods, hasPods := get(p, "podSelector"), get(p, "podSelector") != nil
	switch {
	case hasNS && hasPods:
		return fmt.Sprintf("pods %s in namespaces %s", selectorSummary(pods), selectorSummary(ns)), false
	case hasNS:
		return "namespaces " + selectorSummary(ns), false
	case hasPods:
		return "pods " + selectorSummary(pods) + " in the same namespace", false
	}
	return "unknown peer", false
}

// selectorSummary writes a selector the way kubectl does: k=v,k in (a,b).
func selectorSummary(n *yaml.Node) string {
	s := selector(n)
	var parts []string
	for k, v := range s.MatchLabels {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	for _, e := range s.MatchExpressions {
		switch e.Operator {
		case "In", "NotIn":
			parts = append(parts, fmt.Sprintf("%s %s (%s)", e.Key, strings.ToLower(e.Operator), strings.Join(e.Values, ",")))
		case "Exists":
			parts = append(parts, e.Key)
		case "DoesNotExist":
			parts = append(parts, "!"+e.Key)
		default:
			parts = append(parts, e.Key+" "+e.Operator)
		}
	}
	if len(parts) == 0 {
		return "(all)"
	}
	return strings.Join(parts, ",")
}

// portSummary writes a NetworkPolicyPort as PROTO/port[-endPort].
func portSummary(p *yaml.Node) string {
	proto := str(get(p, "protocol"))
	if proto == "" {
		proto = "TCP"
	}
	port := str(get(p, "port"))
	if port == "" {
		return proto + "/*"
	}
	if end := str(get(p, "endPort")); end != "" {
		port += "-" + end
	}
	return proto + "/" + port
}

// otherPolicies are egress controls of other CNIs and platforms that this
// collector does not evaluate, by group/kind, with the pods they can apply
// to: "pods" (a podSelector in the policy's namespace), "namespace" (every
// pod of it) or "cluster" (any pod, by selectors not evaluated). A pod they
// may select gets an unverified note instead of an unfounded "declares no
// egress restriction".
var otherPolicies = map[string]string{
	"networking.gke.io/FQDNNetworkPolicy":                 "pods",
	"k8s.ovn.org/EgressFirewall":                          "namespace",
	"network.openshift.io/EgressNetworkPolicy":            "namespace",
	"policy.networking.k8s.io/AdminNetworkPolicy":         "cluster",
	"policy.networking.k8s.io/BaselineAdminNetworkPolicy": "cluster",
	"policy.networking.k8s.io/ClusterNetworkPolicy":       "cluster",
	"crd.antrea.io/ClusterNetworkPolicy":                  "cluster",
	"crd.antrea.io/NetworkPolicy":                         "namespace",
}

// otherPolicy records a policy of otherPolicies as unverified.
func (f *file) otherPolicy(o object, scope string) {
	np := model.NetworkPolicy{
		Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node),
		Kind: o.kind, APIVersion: o.apiVersion, ClusterWide: scope == "cluster",
		Unverified: o.kind + " (" + o.group() + ") is not evaluated: what it allows or denies is not in this report",
	}
	if np.ClusterWide {
		np.Namespace = ""
	}
	if scope == "pods" {
		np.PodSelector = selector(dig(o.node, "spec", "podSelector"))
	}
	f.doc.NetworkPolicies = append(f.doc.NetworkPolicies, np)
}
