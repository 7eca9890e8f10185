package kubernetes

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Reasons an object is listed in Skipped. They are grouped on, so keep them
// free of names.
const (
	reasonNoPodSpec     = "holds no pod spec"
	reasonNotFound      = "no pod spec found (not a PodSpec, an Argo template or Tekton steps)"
	reasonPolicyEngine  = "policy-engine rule: its container patterns are not a workload"
	reasonKustomize     = "kustomize input: scan the output of kustomize build"
	reasonNoContainers  = "no pod spec with containers found"
	reasonHostPolicy    = "Cilium host policy (nodeSelector): applies to nodes, not pods"
	reasonTemplateGone  = "its SandboxTemplate is not in the scan: the sandbox's pod is not audited"
	reasonWarmPoolGone  = "its SandboxWarmPool is not in the scan: the sandbox's pod is not audited"
	reasonNoTemplateRef = "names no SandboxTemplate or SandboxWarmPool"
)

// noPodSpec lists the API groups (all their kinds) and the group/kind pairs
// that never hold a pod spec. Their objects are not searched — a
// CustomResourceDefinition's schema or example may spell out a containers
// list — and are listed as reasonNoPodSpec.
var (
	noPodSpecGroups = map[string]bool{
		"rbac.authorization.k8s.io": true, "apiextensions.k8s.io": true,
		"admissionregistration.k8s.io": true, "storage.k8s.io": true,
		"scheduling.k8s.io": true, "coordination.k8s.io": true,
		"discovery.k8s.io": true, "certificates.k8s.io": true,
		"apiregistration.k8s.io": true, "flowcontrol.apiserver.k8s.io": true,
		"gateway.networking.k8s.io": true, "autoscaling": true, "policy": true,
		"events.k8s.io": true, "cert-manager.io": true, "monitoring.coreos.com": true,
	}
	noPodSpecKinds = map[string]bool{
		"/Service": true, "/ConfigMap": true, "/Endpoints": true, "/LimitRange": true,
		"/ResourceQuota": true, "/Event": true, "/Node": true, "/PersistentVolume": true,
		"/Binding": true, "/ComponentStatus": true, "/Namespace": true,
		"networking.k8s.io/Ingress": true, "networking.k8s.io/IngressClass": true,
		"extensions/Ingress": true, "node.k8s.io/RuntimeClass": true,
	}
	// policyEngineGroups hold admission rules whose patterns look like pod
	// specs (Kyverno's validate.pattern.spec.containers) but run nothing.
	policyEngineGroups = map[string]bool{
		"kyverno.io": true, "wgpolicyk8s.io": true, "templates.gatekeeper.sh": true,
		"constraints.gatekeeper.sh": true, "mutations.gatekeeper.sh": true,
		"policies.kubewarden.io": true,
	}
)

// group is the API group of o ("" for the core group).
func (o object) group() string {
	g, _, ok := strings.Cut(o.apiVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// skip lists o in the file's Skipped, grouped with the objects of the same
// apiVersion, kind and reason.
func (f *file) skip(o object, reason string) {
	k := skipKey{o.apiVersion, o.kind, reason}
	if i, ok := f.skipped[k]; ok {
		f.doc.Skipped[i].Count++
		return
	}
	if f.skipped == nil {
		f.skipped = map[skipKey]int{}
	}
	f.skipped[k] = len(f.doc.Skipped)
	f.doc.Skipped = append(f.doc.Skipped, model.SkippedObject{
		APIVersion: o.apiVersion, Kind: o.kind, Name: o.namespace + "/" + o.name,
		Reason: reason, Count: 1, Loc: f.loc(o.node),
	})
}

type skipKey struct{ apiVersion, kind, reason string }

// groupSkipped merges the per-file groups of a whole scan: one entry per
// apiVersion, kind and reason, at its first occurrence (files in scan order).
func groupSkipped(doc *model.Document) {
	if len(doc.Skipped) < 2 {
		return
	}
	at := make(map[skipKey]int, len(doc.Skipped))
	out := doc.Skipped[:0]
	for _, s := range doc.Skipped {
		k := skipKey{s.APIVersion, s.Kind, s.Reason}
		if i, ok := at[k]; ok {
			out[i].Count += s.Count
			continue
		}
		at[k] = len(out)
		out = append(out, s)
	}
	doc.Skipped = out
}
