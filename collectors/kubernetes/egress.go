package kubernetes

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// policyIndex finds the egress policies that may select a pod without
// testing every policy against every pod: a policy whose selector requires
// a label value (matchLabels app: x, Calico app == "x") is filed under it,
// the others under their namespace; a pod is tested only against the
// policies filed under its own labels and namespace.
type policyIndex struct {
	nps        []model.NetworkPolicy
	byLabel    map[string][]int // namespace ("" for cluster-wide) + "\x00" + key=value
	byNS       map[string][]int // namespace ("" for cluster-wide): tested on every pod there
	byTemplate map[string][]int // "namespace/template" of SandboxTemplate policies
	sel        []calicoSel      // parsed Calico selectors, by policy (nil: not Calico or not understood)
	nsSel      []calicoSel
	saSel      []calicoSel
	namespaces map[string]map[string]string
}

func newPolicyIndex(doc *model.Document) *policyIndex {
	x := &policyIndex{
		nps: doc.NetworkPolicies, byLabel: map[string][]int{}, byNS: map[string][]int{},
		byTemplate: map[string][]int{}, namespaces: map[string]map[string]string{},
		sel: make([]calicoSel, len(doc.NetworkPolicies)), nsSel: make([]calicoSel, len(doc.NetworkPolicies)),
		saSel: make([]calicoSel, len(doc.NetworkPolicies)),
	}
	for _, n := range doc.Namespaces {
		if _, dup := x.namespaces[n.Name]; !dup {
			x.namespaces[n.Name] = n.Labels
		}
	}
	seen := map[string]bool{}
	for i := range x.nps {
		np := &x.nps[i]
		if !relevant(np) {
			continue
		}
		// A policy like one filed already (another file's copy: the same
		// default-deny in each repository of a scan) selects the same pods
		// and declares the same egress: filed once, it is tested once.
		// Not Calico's: it applies policies of one order by name, so a copy's
		// name decides where it stands.
		if !isCalico(np) {
			if k := sameAs(np); seen[k] {
				continue
			} else {
				seen[k] = true
			}
		}
		ns := np.Namespace
		if np.ClusterWide {
			ns = ""
		}
		switch {
		case np.Kind == "SandboxTemplate":
			k := np.Namespace + "/" + np.Template
			x.byTemplate[k] = append(x.byTemplate[k], i)
			continue
		case isCalico(np):
			x.sel[i], _ = parseCalicoSelector(np.Selector)
			x.nsSel[i], _ = parseCalicoSelector(np.NamespaceSelector)
			x.saSel[i], _ = parseCalicoSelector(np.ServiceAccountSelector)
			if x.sel[i] != nil {
				if k, v, ok := calicoIndexKey(x.sel[i]); ok && plainKey(k) {
					key := ns + "\x00" + k + "=" + v
					x.byLabel[key] = append(x.byLabel[key], i)
					continue
				}
			}
		default:
			if k, v, ok := indexPair(np.PodSelector); ok {
				key := ns + "\x00" + k + "=" + v
				x.byLabel[key] = append(x.byLabel[key], i)
				continue
			}
		}
		x.byNS[ns] = append(x.byNS[ns], i)
	}
	return x
}

// sameAs is what decides a policy's effect: all of it but its name and
// where it and its rules were read.
func sameAs(np *model.NetworkPolicy) string {
	c := *np
	c.Name, c.Loc = "", model.Loc{}
	c.Rules = slices.Clone(np.Rules)
	for i := range c.Rules {
		c.Rules[i].Loc = model.Loc{}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// relevant: the policy can say something about egress. A NetworkPolicy or
// a Calico policy whose types leave out Egress has no effect on it; a
// Cilium policy may allow without isolating (enableDefaultDeny.egress false).
func relevant(np *model.NetworkPolicy) bool {
	if isCilium(np) {
		return np.IsolatesEgress || len(np.Rules) > 0 || np.Unverified != ""
	}
	return np.IsolatesEgress || (isOther(np) && np.Unverified != "")
}

// isOther: a policy of otherPolicies, read but not evaluated.
func isOther(np *model.NetworkPolicy) bool {
	return otherPolicies[strings.Split(np.APIVersion, "/")[0]+"/"+np.Kind] != ""
}

func isCalico(np *model.NetworkPolicy) bool { return strings.HasPrefix(np.Kind, "Calico") }

func isCilium(np *model.NetworkPolicy) bool { return strings.HasPrefix(np.Kind, "Cilium") }

// plainKey is a pod label key, not one of the keys Cilium and Calico derive
// from namespaces, service accounts or sources.
func plainKey(k string) bool {
	return !strings.Contains(k, ":") && !strings.HasPrefix(k, "io.kubernetes.") &&
		!strings.HasPrefix(k, "io.cilium.") && !strings.HasPrefix(k, "projectcalico.org/") &&
		!strings.HasPrefix(k, "pcns.") && !strings.HasPrefix(k, "pcsa.") && !runtimeLabels[k]
}

// indexPair picks, deterministically, a matchLabels pair the selector
// requires on a plain pod label.
func indexPair(s model.LabelSelector) (string, string, bool) {
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		if plainKey(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "", "", false
	}
	sort.Strings(keys)
	return keys[0], s.MatchLabels[keys[0]], true
}

// candidates lists the policies that may select w, each once.
func (x *policyIndex) candidates(w *model.Workload) []int {
	var out []int
	for _, ns := range []string{w.Namespace, ""} {
		out = append(out, x.byNS[ns]...)
		for k, v := range w.Labels {
			out = append(out, x.byLabel[ns+"\x00"+k+"="+v]...)
		}
	}
	if kind, rest, ok := strings.Cut(w.Object, "/"); ok && kind == "SandboxTemplate" {
		out = append(out, x.byTemplate[rest]...)
	}
	sort.Ints(out)
	return slices.Compact(out)
}

func (x *policyIndex) nsLabels(name string) labeler {
	labels, found := x.namespaces[name]
	return nsLabeler(name, labels, found)
}

// applies says whether policy i selects w.
func (x *policyIndex) applies(i int, w *model.Workload) tri {
	np := &x.nps[i]
	if !np.ClusterWide && np.Namespace != w.Namespace {
		return no
	}
	switch {
	case np.Kind == "SandboxTemplate":
		return triOf(w.Object == "SandboxTemplate/"+np.Namespace+"/"+np.Template)
	case isOther(np):
		switch otherPolicies[strings.Split(np.APIVersion, "/")[0]+"/"+np.Kind] {
		case "cluster":
			return maybe
		case "namespace":
			return yes
		}
		return matchSelector(np.PodSelector, podLabels(w))
	case isCilium(np):
		return matchSelector(np.PodSelector, ciliumLabels(w, x.nsLabels(w.Namespace)))
	case isCalico(np):
		if x.sel[i] == nil || x.nsSel[i] == nil || x.saSel[i] == nil {
			return maybe
		}
		r := x.sel[i].eval(calicoLabels(w, x.nsLabels(w.Namespace)))
		if np.ClusterWide {
			r = and(r, x.nsSel[i].eval(x.nsLabels(w.Namespace)))
		}
		if _, all := x.saSel[i].(selAll); !all {
			// The ServiceAccount's labels are not modelled.
			r = and(r, maybe)
		}
		return r
	}
	return matchSelector(np.PodSelector, podLabels(w))
}

// describe names a policy the way its kind is written.
func describe(np *model.NetworkPolicy) string {
	switch {
	case np.Kind == "SandboxTemplate":
		return "agent-sandbox NetworkPolicy " + np.Namespace + "/" + np.Name + " (SandboxTemplate " + np.Template + ")"
	case np.Kind == "":
		return "NetworkPolicy " + np.Namespace + "/" + np.Name
	case np.ClusterWide:
		return np.Kind + " " + np.Name
	}
	return np.Kind + " " + np.Namespace + "/" + np.Name
}

// egress decides what the policies selecting w declare about its egress;
// nil when none may select it.
func (x *policyIndex) egress(w *model.Workload) *model.Egress {
	var sure []int
	var notes []string
	for _, i := range x.candidates(w) {
		np := &x.nps[i]
		switch x.applies(i, w) {
		case yes:
			sure = append(sure, i)
			if np.Unverified != "" {
				notes = append(notes, describe(np)+": "+np.Unverified)
			}
		case maybe:
			if isOther(np) {
				notes = append(notes, describe(np)+" may select the pod: "+np.Unverified)
				continue
			}
			notes = append(notes, describe(np)+" may select the pod: its selector depends on labels the scan does not know (set at run time, or the Namespace is not in the scan)")
		}
	}
	if len(sure) == 0 && len(notes) == 0 {
		return nil
	}
	var eg *model.Egress
	calico, cilium := false, false
	for _, i := range sure {
		calico = calico || isCalico(&x.nps[i])
		cilium = cilium || isCilium(&x.nps[i])
	}
	if calico {
		if cilium {
			notes = append(notes, "both Cilium and Calico policies select the pod: only one of them runs in a cluster; read as Calico")
		}
		eg = x.ordered(sure)
	} else {
		eg = x.union(sure)
	}
	if eg == nil {
		if len(notes) == 0 {
			return nil
		}
		np := &x.nps[x.firstNoted(w)]
		eg = &model.Egress{By: describe(np), Loc: np.Loc}
	}
	eg.Allow = nonNil(eg.Allow)
	eg.Deny = nonNil(eg.Deny)
	eg.OpenPorts = nonNil(eg.OpenPorts)
	eg.Unverified = append(nonNil(eg.Unverified), notes...)
	return eg
}

// firstNoted is the first candidate policy that may select w, for the
// location of an unverified-only egress fact.
func (x *policyIndex) firstNoted(w *model.Workload) int {
	for _, i := range x.candidates(w) {
		if x.applies(i, w) != no {
			return i
		}
	}
	return 0
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func addOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// union is the Kubernetes and Cilium semantics: a pod any selecting policy
// isolates is default-deny; what any of them allows is allowed; Cilium's
// deny rules win over every allow.
func (x *policyIndex) union(sure []int) *model.Egress {
	if len(sure) == 0 {
		return nil
	}
	eg := &model.Egress{}
	var by, allBy *model.NetworkPolicy
	denyAll := false
	for _, i := range sure {
		np := &x.nps[i]
		if np.IsolatesEgress && by == nil {
			by = np
		}
		for _, r := range np.Rules {
			switch {
			case r.Action == "deny":
				denyAll = denyAll || r.All
				eg.Deny = addOnce(eg.Deny, r.Text)
			case r.Text == "nothing (an empty rule)":
			case len(r.OpenPorts) > 0:
				for _, p := range r.OpenPorts {
					eg.OpenPorts = addOnce(eg.OpenPorts, p)
				}
				eg.Allow = addOnce(eg.Allow, r.Text)
			case r.All:
				eg.AllowAll = true
				if allBy == nil {
					allBy = np
				}
				eg.Allow = addOnce(eg.Allow, r.Text)
			default:
				eg.Allow = addOnce(eg.Allow, r.Text)
			}
		}
	}
	eg.Restricted = by != nil
	if by == nil {
		by = &x.nps[sure[0]]
	}
	if denyAll {
		eg.AllowAll, eg.OpenPorts = false, nil
	}
	if eg.AllowAll {
		by = allBy
	}
	eg.By, eg.Loc = describe(by), by.Loc
	return eg
}

// ordered is Calico's semantics: the policies that isolate the pod, by
// order then name, Kubernetes NetworkPolicies at order 1000; the first rule
// that matches decides.
func (x *policyIndex) ordered(sure []int) *model.Egress {
	var list []int
	for _, i := range sure {
		np := &x.nps[i]
		if np.IsolatesEgress && !isCilium(np) {
			list = append(list, i)
		}
	}
	if len(list) == 0 {
		return nil
	}
	order := func(np *model.NetworkPolicy) float64 {
		switch {
		case np.Order != nil:
			return *np.Order
		case isCalico(np):
			return math.Inf(1)
		}
		return 1000
	}
	sort.SliceStable(list, func(a, b int) bool {
		pa, pb := &x.nps[list[a]], &x.nps[list[b]]
		if oa, ob := order(pa), order(pb); oa != ob {
			return oa < ob
		}
		return pa.Name < pb.Name
	})
	first := &x.nps[list[0]]
	eg := &model.Egress{Restricted: true, By: describe(first), Loc: first.Loc}
	for _, i := range list {
		np := &x.nps[i]
		for _, r := range np.Rules {
			switch r.Action {
			case "allow":
				if r.All {
					eg.AllowAll, eg.By, eg.Loc = true, describe(np), np.Loc
					eg.Allow = addOnce(eg.Allow, r.Text)
					return eg
				}
				for _, p := range r.OpenPorts {
					eg.OpenPorts = addOnce(eg.OpenPorts, p)
				}
				eg.Allow = addOnce(eg.Allow, r.Text)
			case "deny":
				eg.Deny = addOnce(eg.Deny, r.Text)
				if r.All {
					return eg
				}
			case "pass":
				// Past the default tier, the namespace's profile allows.
				if r.All {
					eg.AllowAll, eg.By, eg.Loc = true, describe(np)+" (Pass: on to the namespace profile, which allows)", np.Loc
					return eg
				}
				eg.Allow = addOnce(eg.Allow, r.Text+" (passed on to the namespace profile)")
			}
		}
	}
	return eg
}
