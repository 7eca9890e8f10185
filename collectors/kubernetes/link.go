package kubernetes

import (
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Link joins facts declared in different files: runtimeClassName to its
// RuntimeClass, a pod's token automount to its ServiceAccount, and egress
// NetworkPolicies to the pods they select. It is idempotent.
func (Collector) Link(doc *model.Document) {
	resolve(doc)
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		if w.Source != "kubernetes" {
			continue
		}
		// NetworkPolicies do not apply to hostNetwork pods in the common
		// CNI plugins: such a pod's egress stays undeclared.
		if w.HostNetwork != nil && w.HostNetwork.Value {
			continue
		}
		if eg := egressFor(doc.NetworkPolicies, w); eg != nil {
			w.Egress = eg
		}
	}
}

// egressFor merges the egress policies selecting w. Policies are additive:
// traffic is allowed when any of them allows it, so one allow-all policy
// opens everything and is the one the fact points to.
func egressFor(nps []model.NetworkPolicy, w *model.Workload) *model.Egress {
	var eg *model.Egress
	for _, np := range nps {
		if np.Namespace != w.Namespace || !slices.Contains(np.PolicyTypes, "Egress") || !selects(np.PodSelector, w.Labels) {
			continue
		}
		by := "NetworkPolicy " + np.Namespace + "/" + np.Name
		if eg == nil {
			eg = &model.Egress{Restricted: true, By: by, Loc: np.Loc, Allow: []string{}}
		}
		if np.EgressAllowAll && !eg.AllowAll {
			eg.AllowAll, eg.By, eg.Loc = true, by, np.Loc
		}
		for _, a := range np.EgressAllow {
			if !slices.Contains(eg.Allow, a) {
				eg.Allow = append(eg.Allow, a)
			}
		}
	}
	return eg
}

// selects reports whether a label selector matches labels. An empty
// selector matches every pod; an unknown operator matches none, as the API
// server would have refused the policy.
func selects(s model.LabelSelector, labels map[string]string) bool {
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, e := range s.MatchExpressions {
		got, ok := labels[e.Key]
		switch e.Operator {
		case "In":
			if !ok || !slices.Contains(e.Values, got) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(e.Values, got) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// resolve sets the Runtime of every Kubernetes workload from the
// RuntimeClasses known so far, and its ServiceAccountToken from its
// ServiceAccount when the pod spec leaves automount unset.
func resolve(doc *model.Document) {
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		if w.Source != "kubernetes" {
			continue
		}
		if w.RuntimeClass != "" && w.Runtime != nil {
			handler := ""
			for _, rc := range doc.RuntimeClasses {
				if rc.Name == w.RuntimeClass {
					handler = rc.Handler
					break
				}
			}
			w.Runtime.Value = normalizeRuntime(w.RuntimeClass, handler)
		}
		if w.ServiceAccountTokenFrom != "default" {
			continue
		}
		for _, sa := range doc.ServiceAccounts {
			if sa.Name == w.ServiceAccount && sa.Namespace == w.Namespace && sa.AutomountToken != nil {
				b := *sa.AutomountToken
				w.ServiceAccountToken = &b
				w.ServiceAccountTokenFrom = "service-account"
				break
			}
		}
	}
}

// normalizeRuntime names the isolation a RuntimeClass gives: the handler
// when the class is known (a class called "sandboxed" may still be runc),
// else the class name; gVisor, Kata, Firecracker and Sysbox are recognised
// in either.
func normalizeRuntime(name, handler string) string {
	for _, s := range []string{handler, name} {
		l := strings.ToLower(s)
		switch {
		case l == "":
			continue
		case strings.Contains(l, "runsc") || strings.Contains(l, "gvisor"):
			return "gvisor"
		case strings.Contains(l, "kata"):
			return "kata"
		case strings.Contains(l, "firecracker"):
			return "firecracker"
		case strings.Contains(l, "sysbox"):
			return "sysbox"
		}
		return l
	}
	return ""
}
