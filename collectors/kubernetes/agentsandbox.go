package kubernetes

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// The Kubernetes agent-sandbox project (github.com/kubernetes-sigs/agent-sandbox)
// declares the pod an agent runs in through CRDs, read here from the API
// types of v1alpha1 and v1beta1:
//
//   - agents.x-k8s.io Sandbox (api/v1beta1/sandbox_types.go): spec.podTemplate
//     {metadata, spec} is the pod, spec.volumeClaimTemplates PVCs made for it,
//     spec.shutdownTime / shutdownPolicy its expiry (v1alpha1 also has
//     replicas 0|1, v1beta1 operatingMode Running|Suspended).
//   - extensions.agents.x-k8s.io SandboxTemplate
//     (extensions/api/v1beta1/sandboxtemplate_types.go): the same podTemplate
//     and volumeClaimTemplates, plus networkPolicy {ingress, egress} and
//     networkPolicyManagement Managed (default) | Unmanaged. "If
//     AutomountServiceAccountToken is not specified in the PodSpec, the
//     controller defaults it to false" for sandboxes made from a template.
//   - SandboxClaim (extensions/api/v1{alpha,beta}1/sandboxclaim_types.go):
//     v1alpha1 names spec.sandboxTemplateRef.name and a spec.warmpool policy
//     (none | default | <pool name>); v1beta1 names spec.warmPoolRef.name and
//     may add spec.env (literal values) and spec.additionalPodMetadata; both
//     carry spec.lifecycle {shutdownTime, shutdownPolicy,
//     ttlSecondsAfterFinished (v1beta1)}.
//   - SandboxWarmPool (extensions/api/v1{alpha,beta}1/sandboxwarmpool_types.go):
//     spec.replicas ready sandboxes, from spec.sandboxTemplateRef.name
//     (v1beta1) or an own spec.podTemplate (early v1alpha1).
//
// Their pods are where the agent's code runs: workloads get Role "agent".
const (
	agentsGroup    = "agents.x-k8s.io"
	agentsExtGroup = "extensions.agents.x-k8s.io"
)

func isAgentSandbox(o object) bool {
	switch o.group() {
	case agentsGroup:
		return o.kind == "Sandbox"
	case agentsExtGroup:
		return o.kind == "SandboxTemplate" || o.kind == "SandboxWarmPool"
	}
	return false
}

// agentSandbox completes the workloads ws read from a Sandbox,
// SandboxTemplate or SandboxWarmPool o.
func (f *file) agentSandbox(o object, ws []model.Workload) {
	spec := get(o.node, "spec")
	reason := "agent-sandbox " + o.kind + " CRD"
	for i := range ws {
		ws[i].Role, ws[i].RoleReason = "agent", reason
	}
	switch o.kind {
	case "Sandbox":
		if sd := f.shutdown(spec); sd != nil {
			for i := range ws {
				ws[i].Shutdown = sd
			}
		}
	case "SandboxTemplate":
		for i := range ws {
			// sandboxtemplate_types.go: the controller sets automount to
			// false when the pod spec leaves it unset.
			if w := &ws[i]; w.ServiceAccountTokenFrom == "default" {
				w.ServiceAccountToken.Value = false
				w.ServiceAccountTokenFrom = "sandbox-template"
			}
		}
		f.templatePolicy(o, spec)
	case "SandboxWarmPool":
		ref := model.SandboxRef{
			APIVersion: o.apiVersion, Kind: o.kind, Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node),
			Template: str(dig(spec, "sandboxTemplateRef", "name")),
		}
		if ref.Template == "" {
			// An intermediate v1beta1 spelling (clients/integrations/openhands).
			ref.Template = str(dig(spec, "templateRef", "name"))
		}
		if n, ok := integer(get(spec, "replicas")); ok {
			ref.Replicas = int(n)
		}
		if len(ws) > 0 {
			// An early v1alpha1 pool with its own pod template.
			ref.Resolved = "own-pod"
			pool := poolFact(ref)
			for i := range ws {
				ws[i].Pool = pool
			}
		} else if ref.Template == "" {
			f.skip(o, reasonNoTemplateRef)
			return
		}
		f.doc.SandboxRefs = append(f.doc.SandboxRefs, ref)
		return
	}
	if len(ws) == 0 {
		f.skip(o, "no pod spec at spec.podTemplate.spec")
	}
}

// poolFact says how a SandboxWarmPool hands sandboxes out. The assigner
// (extensions/controllers/warmpool_assigner.go) only queues ready sandboxes
// no SandboxClaim controls; an adopted sandbox is owned by its claim and
// deleted with it, and the pool creates another: each claim gets a sandbox
// no task used before.
func poolFact(pool model.SandboxRef) *model.Str {
	return &model.Str{
		Value: fmt.Sprintf("fresh: SandboxWarmPool %s/%s keeps %d ready sandboxes; a claim adopts one no claim used, and it is deleted with the claim", pool.Namespace, pool.Name, pool.Replicas),
		Loc:   pool.Loc,
	}
}

// shutdown reads a lifecycle (a Sandbox's spec, a claim's spec.lifecycle) as
// written; nil when it sets nothing.
func (f *file) shutdown(n *yaml.Node) *model.Str {
	var parts []string
	var at *yaml.Node
	for _, k := range []string{"shutdownTime", "ttlSecondsAfterFinished", "shutdownPolicy"} {
		if key, v := lookup(n, k); str(v) != "" {
			parts = append(parts, k+" "+str(v))
			if at == nil {
				at = key
			}
		}
	}
	if at == nil {
		return nil
	}
	return &model.Str{Value: strings.Join(parts, ", "), Loc: f.loc(at)}
}

// sandboxClaim records a SandboxClaim: Link joins it to its template.
func (f *file) sandboxClaim(o object) {
	spec := get(o.node, "spec")
	ref := model.SandboxRef{
		APIVersion: o.apiVersion, Kind: o.kind, Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node),
		Template: str(dig(spec, "sandboxTemplateRef", "name")),
		WarmPool: str(dig(spec, "warmPoolRef", "name")),
		Labels:   strMap(dig(spec, "additionalPodMetadata", "labels")),
		Shutdown: f.shutdown(get(spec, "lifecycle")),
	}
	if p := str(get(spec, "warmpool")); ref.WarmPool == "" && p != "" && p != "none" && p != "default" {
		ref.WarmPool = p
	}
	if ref.Template == "" && ref.WarmPool == "" {
		f.skip(o, reasonNoTemplateRef)
		return
	}
	desc := fmt.Sprintf("agent-sandbox SandboxClaim %s/%s", o.namespace, o.name)
	for _, e := range items(get(spec, "env")) {
		ev, ok := f.envVar(e, desc)
		if !ok {
			continue
		}
		ref.Env = append(ref.Env, ev)
		ref.EnvContainers = append(ref.EnvContainers, str(get(e, "containerName")))
	}
	f.doc.SandboxRefs = append(f.doc.SandboxRefs, ref)
}

// templatePolicy records the NetworkPolicy agent-sandbox's controller keeps
// for a SandboxTemplate's sandboxes (extensions/controllers/sandboxtemplate_controller.go):
// none when networkPolicyManagement is Unmanaged; the template's
// networkPolicy rules with Ingress and Egress types when given (an empty
// egress list denies all); else its "secure default", whose egress allows
// every port to 0.0.0.0/0 except 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16
// and 169.254.0.0/16, and ::/0 except fc00::/7 — the public internet, so
// every outside destination.
func (f *file) templatePolicy(o object, spec *yaml.Node) {
	if strings.EqualFold(str(get(spec, "networkPolicyManagement")), "Unmanaged") {
		return
	}
	np := model.NetworkPolicy{
		Name: o.name + "-network-policy", Namespace: o.namespace, Loc: f.loc(o.node),
		Kind: "SandboxTemplate", APIVersion: o.apiVersion, Template: o.name,
		PolicyTypes: []string{"Ingress", "Egress"}, IsolatesEgress: true,
	}
	key, custom := lookup(spec, "networkPolicy")
	if custom == nil {
		np.Rules = []model.PolicyRule{{
			Action: "allow", All: true, Loc: f.loc(o.node),
			Text: "the public internet (agent-sandbox default: 0.0.0.0/0 except 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16; ::/0 except fc00::/7)",
		}}
	} else {
		np.Loc = f.loc(key)
		for _, r := range items(get(custom, "egress")) {
			all, allow, open := egressRuleOpen(r)
			for i, a := range allow {
				pr := model.PolicyRule{Action: "allow", All: all, Text: a, Loc: f.loc(r)}
				if i == 0 {
					pr.OpenPorts = open
				}
				np.Rules = append(np.Rules, pr)
			}
		}
	}
	np.EgressRules = len(np.Rules)
	for _, r := range np.Rules {
		np.EgressAllowAll = np.EgressAllowAll || r.All
		np.EgressAllow = append(np.EgressAllow, r.Text)
	}
	f.doc.NetworkPolicies = append(f.doc.NetworkPolicies, np)
}

// resolveSandboxRefs joins each SandboxClaim and SandboxWarmPool to the
// workloads of the SandboxTemplate it names, in any file of the scan: the
// claim's labels and env reach the sandbox's pod, its lifecycle says when
// the pod goes, a pool says how it hands sandboxes out. A claim or pool
// whose template (or pool) is not in the scan is listed in Skipped: the pod
// it asks for was not audited. Each ref is resolved once.
func resolveSandboxRefs(doc *model.Document) {
	if len(doc.SandboxRefs) == 0 {
		return
	}
	owned := map[string][]int{} // "Kind/namespace/name" of the declaring object → workloads
	for i := range doc.Workloads {
		if w := &doc.Workloads[i]; w.Source == "kubernetes" && w.Object != "" {
			owned[w.Object] = append(owned[w.Object], i)
		}
	}
	pools := map[string]*model.SandboxRef{}
	// elsewhere: "Kind/name" of the pools and templates in the scan, to tell
	// a reference to another namespace from one to a missing object.
	elsewhere := map[string]bool{}
	for i := range doc.SandboxRefs {
		if r := &doc.SandboxRefs[i]; r.Kind == "SandboxWarmPool" {
			pools[r.Namespace+"/"+r.Name] = r
			elsewhere["SandboxWarmPool/"+r.Name] = true
		}
	}
	for obj := range owned {
		if kind, rest, _ := strings.Cut(obj, "/"); kind == "SandboxTemplate" {
			_, name, _ := strings.Cut(rest, "/")
			elsewhere["SandboxTemplate/"+name] = true
		}
	}
	gone := func(kind, name, reason string) string {
		if elsewhere[kind+"/"+name] {
			return "its " + kind + " is in the scan only in another namespace: the sandbox's pod is not audited (a namespace set at apply time, e.g. by kustomize, is not known to the scan)"
		}
		return reason
	}
	for i := range doc.SandboxRefs {
		r := &doc.SandboxRefs[i]
		if r.Resolved != "" {
			continue
		}
		var pool *model.SandboxRef
		object := "SandboxTemplate/" + r.Namespace + "/" + r.Template
		if r.Kind == "SandboxWarmPool" {
			pool = r
		} else if r.WarmPool != "" {
			pool = pools[r.Namespace+"/"+r.WarmPool]
			switch {
			case pool == nil && r.Template == "":
				missing(doc, r, gone("SandboxWarmPool", r.WarmPool, reasonWarmPoolGone))
				continue
			case pool != nil && pool.Resolved == "own-pod":
				object = "SandboxWarmPool/" + pool.Namespace + "/" + pool.Name
			case pool != nil && r.Template == "":
				object = "SandboxTemplate/" + r.Namespace + "/" + pool.Template
			}
		}
		ws := owned[object]
		if len(ws) == 0 {
			_, rest, _ := strings.Cut(object, "/")
			_, name, _ := strings.Cut(rest, "/")
			missing(doc, r, gone("SandboxTemplate", name, reasonTemplateGone))
			continue
		}
		r.Resolved = "template"
		for _, j := range ws {
			applyRef(&doc.Workloads[j], r, pool)
		}
		// Env without containerName goes to the first container.
		for k, ev := range r.Env {
			target := r.EnvContainers[k]
			for _, j := range ws {
				w := &doc.Workloads[j]
				if (target == "" && w.ContainerType == "main") || (target != "" && strings.HasSuffix(w.Name, "/"+target)) {
					w.Env = append(w.Env, ev)
					break
				}
			}
		}
	}
}

// applyRef adds what a claim or pool says to one of the template's workloads.
func applyRef(w *model.Workload, r, pool *model.SandboxRef) {
	if len(r.Labels) > 0 {
		labels := make(map[string]string, len(w.Labels)+len(r.Labels))
		for k, v := range w.Labels {
			labels[k] = v
		}
		for k, v := range r.Labels {
			labels[k] = v
		}
		w.Labels = labels
	}
	if w.Shutdown == nil && r.Shutdown != nil {
		sd := *r.Shutdown
		sd.Value = r.Kind + " " + r.Namespace + "/" + r.Name + ": " + sd.Value
		w.Shutdown = &sd
	}
	if pool != nil && w.Pool == nil {
		w.Pool = poolFact(*pool)
	}
}

func missing(doc *model.Document, r *model.SandboxRef, reason string) {
	r.Resolved = "missing"
	doc.Skipped = append(doc.Skipped, model.SkippedObject{
		APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Namespace + "/" + r.Name,
		Reason: reason, Count: 1, Loc: r.Loc,
	})
}
