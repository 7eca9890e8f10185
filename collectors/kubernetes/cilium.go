package kubernetes

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Cilium policies (cilium.io/v2 CiliumNetworkPolicy, namespaced, and
// CiliumClusterwideNetworkPolicy), read from the Cilium docs and API types
// (pkg/policy/api/rule.go, egress.go, entity.go; docs.cilium.io
// security/policy/intro, language, deny):
//
//   - A rule (spec, or each of specs) selects endpoints with endpointSelector
//     (a CiliumNetworkPolicy only within its namespace) or nodes with
//     nodeSelector (a host policy: no pod).
//   - "If any rule selects an Endpoint and the rule has an egress section,
//     the endpoint goes into default deny at egress"; enableDefaultDeny.egress
//     false keeps a policy from doing so, and any policy requesting it wins.
//     An egressDeny section counts too ("Pods will enter default-deny mode as
//     soon a single policy selects it").
//   - Egress rules allow the union of their destinations: toEndpoints,
//     toEntities (world: everything outside the cluster, "identical to
//     allowing to CIDR 0.0.0.0/0"; all: everything), toCIDR / toCIDRSet,
//     toFQDNs (matchName, matchPattern; "*" alone matches all names),
//     toServices, toGroups, toNodes; toPorts narrows them to ports, and a
//     rule with only toPorts allows any destination on those ports. An empty
//     rule ({}) selects nothing: it only puts the endpoint in default deny.
//   - egressDeny rules take precedence over every allow, of any policy kind.
//
// An empty or null egress list is read as absent ("If omitted or empty, this
// rule does not apply at egress"), with a note: Cilium's own old example of
// egress default deny used an empty list.

// ciliumPolicy records each rule of a Cilium policy as a NetworkPolicy.
func (f *file) ciliumPolicy(o object) {
	specs := items(get(o.node, "specs"))
	if s := get(o.node, "spec"); s != nil {
		specs = append([]*yaml.Node{s}, specs...)
	}
	for i, spec := range specs {
		np := model.NetworkPolicy{
			Name: o.name, Namespace: o.namespace, Loc: f.loc(spec),
			Kind: o.kind, APIVersion: o.apiVersion,
			ClusterWide: o.kind == "CiliumClusterwideNetworkPolicy",
			PodSelector: selector(get(spec, "endpointSelector")),
		}
		if len(specs) > 1 {
			np.Name = fmt.Sprintf("%s[%d]", o.name, i)
		}
		if get(spec, "endpointSelector") == nil {
			if get(spec, "nodeSelector") != nil {
				f.skip(o, reasonHostPolicy)
			} else {
				f.skip(o, "Cilium rule without endpointSelector")
			}
			continue
		}
		if np.ClusterWide {
			np.Namespace = ""
		}
		egKey, eg := lookup(spec, "egress")
		_, deny := lookup(spec, "egressDeny")
		rules, denies := items(eg), items(deny)
		for _, r := range rules {
			np.Rules = append(np.Rules, f.ciliumRule(r, "allow", np.Namespace))
		}
		for _, r := range denies {
			np.Rules = append(np.Rules, f.ciliumRule(r, "deny", np.Namespace))
		}
		np.IsolatesEgress = len(rules)+len(denies) > 0
		if egKey != nil && len(rules) == 0 && len(denies) == 0 {
			np.Unverified = "an empty egress section: read as absent, as Cilium's API documents, though an old Cilium example used it for default deny"
		}
		if b, ok := boolean(dig(spec, "enableDefaultDeny", "egress")); ok {
			np.IsolatesEgress = b
		}
		if np.IsolatesEgress {
			np.PolicyTypes = []string{"Egress"}
		}
		np.EgressRules = len(rules)
		for _, r := range np.Rules {
			if r.Action == "allow" {
				np.EgressAllowAll = np.EgressAllowAll || r.All
				np.EgressAllow = append(np.EgressAllow, r.Text)
			}
		}
		f.doc.NetworkPolicies = append(f.doc.NetworkPolicies, np)
	}
}

// ciliumRule reads one egress or egressDeny rule. ns is the policy's
// namespace ("" for a clusterwide one), where toEndpoints selectors look.
func (f *file) ciliumRule(r *yaml.Node, action, ns string) model.PolicyRule {
	var peers []string
	everything := false
	for _, s := range items(get(r, "toEndpoints")) {
		text := "pods " + selectorSummary(s)
		switch {
		case namesNamespace(s):
		case ns == "":
			text += " in any namespace"
		default:
			text += " in namespace " + ns
		}
		peers = append(peers, text)
	}
	for _, e := range strList(get(r, "toEntities")) {
		switch e {
		case "world", "all":
			everything = true
			peers = append(peers, "entity "+e+" (every destination outside the cluster)")
		default:
			peers = append(peers, "entity "+e)
		}
	}
	for _, c := range strList(get(r, "toCIDR")) {
		everything = everything || c == "0.0.0.0/0" || c == "::/0"
		peers = append(peers, c)
	}
	for _, c := range items(get(r, "toCIDRSet")) {
		cidr := str(get(c, "cidr"))
		if cidr == "" {
			cidr = "CIDR group " + str(get(c, "cidrGroupRef"))
		}
		everything = everything || cidr == "0.0.0.0/0" || cidr == "::/0"
		if ex := strList(get(c, "except")); len(ex) > 0 {
			cidr += " except " + strings.Join(ex, ", ")
		}
		peers = append(peers, cidr)
	}
	for _, q := range items(get(r, "toFQDNs")) {
		if n := str(get(q, "matchName")); n != "" {
			peers = append(peers, n)
		}
		if p := str(get(q, "matchPattern")); p != "" {
			everything = everything || p == "*"
			peers = append(peers, p)
		}
	}
	for _, s := range items(get(r, "toServices")) {
		if k := get(s, "k8sService"); k != nil {
			peers = append(peers, "service "+str(get(k, "namespace"))+"/"+str(get(k, "serviceName")))
		} else {
			peers = append(peers, "services "+selectorSummary(dig(s, "k8sServiceSelector", "selector")))
		}
	}
	if get(r, "toGroups") != nil {
		peers = append(peers, "cloud provider groups")
	}
	for _, s := range items(get(r, "toNodes")) {
		peers = append(peers, "nodes "+selectorSummary(s))
	}
	var ports []string
	l7 := false
	for _, pr := range items(get(r, "toPorts")) {
		for _, p := range items(get(pr, "ports")) {
			ports = append(ports, ciliumPort(p))
		}
		l7 = l7 || get(pr, "rules") != nil
	}
	on := ""
	if len(ports) > 0 {
		on = " on " + strings.Join(ports, ", ")
	}
	if l7 {
		on += " (L7 rules)"
	}
	pr := model.PolicyRule{Action: action, Loc: f.loc(r)}
	switch {
	case len(peers) == 0 && len(ports) == 0:
		pr.Text = "nothing (an empty rule)"
	case len(peers) == 0:
		pr.Text = "any destination" + on
		pr.OpenPorts = ports
	default:
		pr.Text = strings.Join(peers, ", ") + on
		pr.All = everything && len(ports) == 0
		if everything {
			pr.OpenPorts = ports
		}
	}
	return pr
}

// namesNamespace: an endpoint selector that says its namespace itself.
func namesNamespace(s *yaml.Node) bool {
	sel := selector(s)
	for k := range sel.MatchLabels {
		if strings.TrimPrefix(k, "k8s:") == "io.kubernetes.pod.namespace" {
			return true
		}
	}
	for _, e := range sel.MatchExpressions {
		if strings.TrimPrefix(e.Key, "k8s:") == "io.kubernetes.pod.namespace" {
			return true
		}
	}
	return false
}

func ciliumPort(p *yaml.Node) string {
	proto := strings.ToUpper(str(get(p, "protocol")))
	if proto == "" {
		proto = "ANY"
	}
	port := str(get(p, "port"))
	if port == "" || port == "0" {
		port = "*"
	}
	if end := str(get(p, "endPort")); end != "" && end != "0" {
		port += "-" + end
	}
	return proto + "/" + port
}

// ciliumLabels is the labeler Cilium's endpoint selectors see for a pod: its
// labels (a k8s: or any: source prefix stripped), io.kubernetes.pod.namespace,
// io.cilium.k8s.policy.serviceaccount, and the namespace's labels as
// io.cilium.k8s.namespace.labels.<key>. reserved: labels (host, world…)
// never belong to a pod; the cluster name is not known.
func ciliumLabels(w *model.Workload, ns labeler) labeler {
	pod := podLabels(w)
	return func(k string) (string, bool, bool) {
		if src, rest, ok := strings.Cut(k, ":"); ok {
			switch src {
			case "k8s", "any", "container":
				k = rest
			case "reserved", "cidr", "fqdn", "unspec":
				return "", false, true
			}
		}
		switch {
		case k == "io.kubernetes.pod.namespace":
			return w.Namespace, true, true
		case k == "io.cilium.k8s.policy.serviceaccount":
			return w.ServiceAccount, true, true
		case k == "io.cilium.k8s.policy.cluster":
			return "", false, false
		case strings.HasPrefix(k, "io.cilium.k8s.namespace.labels."):
			return ns(strings.TrimPrefix(k, "io.cilium.k8s.namespace.labels."))
		}
		return pod(k)
	}
}
