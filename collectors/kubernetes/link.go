package kubernetes

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Link joins facts declared in different files: runtimeClassName to its
// RuntimeClass, a pod's token automount to its ServiceAccount, its service
// account to the rights RBAC bindings give it (resolveGrants), agent-sandbox
// claims and warm pools to their SandboxTemplate, and egress policies
// (NetworkPolicy, Cilium, Calico, agent-sandbox's template policy) to the
// pods they select. It merges the files' Skipped groups. It is idempotent,
// and linear in the objects: lookups go through maps, and each pod is only
// matched against the policies that can select it (policyIndex).
func (Collector) Link(doc *model.Document) {
	resolve(doc)
	resolveGrants(doc)
	resolveSandboxRefs(doc)
	groupSkipped(doc)
	idx := newPolicyIndex(doc)
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
		if eg := idx.egress(w); eg != nil {
			w.Egress = eg
		}
	}
}

// resolve sets the Runtime of every Kubernetes workload from the
// RuntimeClasses known so far, and its ServiceAccountToken from its
// ServiceAccount when the pod spec leaves automount unset.
func resolve(doc *model.Document) {
	if len(doc.Workloads) == 0 {
		return
	}
	handlers := make(map[string]string, len(doc.RuntimeClasses))
	for _, rc := range doc.RuntimeClasses {
		if _, dup := handlers[rc.Name]; !dup {
			handlers[rc.Name] = rc.Handler
		}
	}
	accounts := make(map[string]*model.Bool, len(doc.ServiceAccounts))
	for i := range doc.ServiceAccounts {
		sa := &doc.ServiceAccounts[i]
		k := sa.Namespace + "/" + sa.Name
		if _, dup := accounts[k]; !dup && sa.AutomountToken != nil {
			accounts[k] = sa.AutomountToken
		}
	}
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		if w.Source != "kubernetes" {
			continue
		}
		if w.RuntimeClass != "" && w.Runtime != nil {
			w.Runtime.Value = normalizeRuntime(w.RuntimeClass, handlers[w.RuntimeClass])
		}
		if w.ServiceAccountTokenFrom != "default" {
			continue
		}
		if b := accounts[w.Namespace+"/"+w.ServiceAccount]; b != nil {
			v := *b
			w.ServiceAccountToken = &v
			w.ServiceAccountTokenFrom = "service-account"
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
