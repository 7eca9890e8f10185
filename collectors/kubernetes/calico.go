package kubernetes

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Calico policies (projectcalico.org/v3 NetworkPolicy, namespaced, and
// GlobalNetworkPolicy), read from Calico's API types
// (projectcalico/api pkg/apis/projectcalico/v3 networkpolicy.go,
// policy_common.go) and policy docs:
//
//   - selector picks the endpoints (pods) the policy applies to; a
//     GlobalNetworkPolicy may add namespaceSelector (namespace labels) and
//     serviceAccountSelector; a NetworkPolicy only applies in its namespace.
//   - types: when empty, Egress is in it only when egress rules are present.
//   - Policies apply by ascending order (no order: last; equal orders by
//     name), Kubernetes NetworkPolicies among them at order 1000; within a
//     policy, rules in order; the first rule whose criteria match decides:
//     Allow, Deny, or Pass (skip the rest of the tier; past the last tier the
//     namespace's profile allows). Log decides nothing. A packet no rule
//     matched is denied once any policy with Egress selects the pod.
//   - destination: nets, notNets, selector, notSelector, namespaceSelector,
//     ports, notPorts, services, serviceAccounts, domains (DNS policy,
//     Calico Enterprise and recent releases); protocol narrows a rule.
//
// Tiers other than the default are ordered by Tier objects the scan does
// not read: a policy in one is evaluated as if in the default tier, with a
// note.

// calicoPolicy records a Calico policy as a NetworkPolicy.
func (f *file) calicoPolicy(o object) {
	spec := get(o.node, "spec")
	kind := "CalicoNetworkPolicy"
	if o.kind == "GlobalNetworkPolicy" {
		kind = "CalicoGlobalNetworkPolicy"
	}
	np := model.NetworkPolicy{
		Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node),
		Kind: kind, APIVersion: o.apiVersion, ClusterWide: o.kind == "GlobalNetworkPolicy",
		Selector:               str(get(spec, "selector")),
		NamespaceSelector:      str(get(spec, "namespaceSelector")),
		ServiceAccountSelector: str(get(spec, "serviceAccountSelector")),
		Tier:                   str(get(spec, "tier")),
	}
	if np.ClusterWide {
		np.Namespace = ""
	}
	if v := get(spec, "order"); str(v) != "" {
		if x, err := strconv.ParseFloat(str(v), 64); err == nil {
			np.Order = &x
		}
	}
	egress := items(get(spec, "egress"))
	np.PolicyTypes = strList(get(spec, "types"))
	if len(np.PolicyTypes) == 0 {
		if len(egress) > 0 {
			np.PolicyTypes = append(np.PolicyTypes, "Egress")
		}
		if len(items(get(spec, "ingress"))) > 0 || len(egress) == 0 {
			np.PolicyTypes = append([]string{"Ingress"}, np.PolicyTypes...)
		}
	}
	np.IsolatesEgress = slices.Contains(np.PolicyTypes, "Egress")
	for _, r := range egress {
		np.Rules = append(np.Rules, f.calicoRule(r))
	}
	np.EgressRules = len(egress)
	for _, r := range np.Rules {
		if r.Action == "allow" {
			np.EgressAllowAll = np.EgressAllowAll || r.All
			np.EgressAllow = append(np.EgressAllow, r.Text)
		}
	}
	for _, s := range []string{np.Selector, np.NamespaceSelector, np.ServiceAccountSelector} {
		if _, err := parseCalicoSelector(s); err != nil {
			np.Unverified = "selector not understood: " + err.Error()
		}
	}
	if np.Tier != "" && np.Tier != "default" {
		np.Unverified = "in tier " + np.Tier + ", whose order against other tiers is not in the scan"
	}
	f.doc.NetworkPolicies = append(f.doc.NetworkPolicies, np)
}

// calicoRule reads one egress rule.
func (f *file) calicoRule(r *yaml.Node) model.PolicyRule {
	pr := model.PolicyRule{Action: strings.ToLower(str(get(r, "action"))), Loc: f.loc(r)}
	d := get(r, "destination")
	var what []string
	constrained := false
	// portless: constrained by something other than ports and protocol.
	portless := false
	nets := strList(get(d, "nets"))
	openNet := len(nets) == 0
	for _, n := range nets {
		openNet = openNet || n == "0.0.0.0/0" || n == "::/0"
	}
	if len(nets) > 0 {
		what = append(what, "nets "+strings.Join(nets, ", "))
	}
	if nn := strList(get(d, "notNets")); len(nn) > 0 {
		what = append(what, "except nets "+strings.Join(nn, ", "))
	}
	if s := str(get(d, "selector")); s != "" {
		constrained = true
		portless = true
		where := "in the same namespace"
		if ns := str(get(d, "namespaceSelector")); ns != "" {
			where = "in namespaces (" + ns + ")"
		}
		what = append(what, "endpoints ("+s+") "+where)
	} else if ns := str(get(d, "namespaceSelector")); ns != "" {
		constrained = true
		portless = true
		what = append(what, "namespaces ("+ns+")")
	}
	if s := str(get(d, "notSelector")); s != "" {
		constrained = true
		portless = true
		what = append(what, "not endpoints ("+s+")")
	}
	if svc := get(d, "services"); svc != nil {
		constrained = true
		portless = true
		what = append(what, "service "+str(get(svc, "namespace"))+"/"+str(get(svc, "name")))
	}
	if sa := get(d, "serviceAccounts"); sa != nil {
		constrained = true
		portless = true
		what = append(what, "service accounts "+strings.Join(strList(get(sa, "names")), ", ")+str(get(sa, "selector")))
	}
	if ds := strList(get(d, "domains")); len(ds) > 0 {
		constrained = true
		portless = true
		what = append(what, strings.Join(ds, ", "))
	}
	proto := str(get(r, "protocol"))
	var ports []string
	for _, p := range items(get(d, "ports")) {
		ports = append(ports, protoOr(proto)+"/"+str(p))
	}
	on := ""
	switch {
	case len(ports) > 0:
		constrained = true
		on = " on " + strings.Join(ports, ", ")
	case proto != "":
		constrained = true
		on = " over " + proto
	}
	if np := items(get(d, "notPorts")); len(np) > 0 {
		constrained = true
		portless = true
		on += " except ports"
	}
	if str(get(r, "notProtocol")) != "" || get(r, "http") != nil || get(r, "icmp") != nil {
		constrained = true
		portless = true
	}
	if len(what) == 0 {
		what = []string{"any destination"}
	}
	pr.Text = strings.Join(what, " ") + on
	pr.All = openNet && !constrained
	// Only ports (and the protocol they need) narrow it: every destination
	// on those ports.
	if openNet && len(ports) > 0 && !portless {
		pr.OpenPorts = ports
	}
	return pr
}

func protoOr(p string) string {
	if p == "" {
		return "TCP"
	}
	return strings.ToUpper(p)
}

// calicoLabels is the labeler Calico's selectors see for a pod: its labels,
// plus projectcalico.org/namespace, projectcalico.org/orchestrator (k8s) and
// projectcalico.org/serviceaccount, and the namespace's labels as pcns.<key>.
func calicoLabels(w *model.Workload, ns labeler) labeler {
	pod := podLabels(w)
	return func(k string) (string, bool, bool) {
		switch {
		case k == "projectcalico.org/namespace":
			return w.Namespace, true, true
		case k == "projectcalico.org/orchestrator":
			return "k8s", true, true
		case k == "projectcalico.org/serviceaccount":
			return w.ServiceAccount, true, true
		case strings.HasPrefix(k, "pcns."):
			return ns(strings.TrimPrefix(k, "pcns."))
		case strings.HasPrefix(k, "pcsa."):
			return "", false, false
		}
		return pod(k)
	}
}
