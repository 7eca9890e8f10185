package kubernetes

import (
	"maps"

	"go.yaml.in/yaml/v3"
)

const kagentGroup = "kagent.dev"

// kagentAgent reads a kagent Agent (kagent.dev): its controller runs the
// agent as a Deployment of one container, built from
// spec.declarative.deployment (or spec.byo.deployment), which holds the
// container's settings (image, env, volumeMounts, securityContext) beside
// the pod's (volumes, serviceAccountName, podSecurityContext, labels). The
// Agent holds no pod spec of its own, so the workload is read from that
// mapping: its role is the agent's.
//
// What the controller adds is not all written in the Agent. The pod's
// labels are taken as the Agent's own, the deployment's, and the two the
// controller sets (app.kubernetes.io/name: the Agent's name, managed-by:
// kagent); with no serviceAccountName the account it uses is not known, so
// the service-account token is left unknown rather than said to be the
// default account's.
func (f *file) kagentAgent(o object) {
	spec := get(o.node, "spec")
	key, dep := lookup(get(spec, "declarative"), "deployment")
	if dep == nil {
		key, dep = lookup(get(spec, "byo"), "deployment")
	}
	if dep == nil || deref(dep).Kind != yaml.MappingNode {
		// No deployment settings: the controller's defaults, at the spec.
		key, _ = lookup(o.node, "spec")
		if key == nil {
			key = o.node
		}
		dep = &yaml.Node{Kind: yaml.MappingNode, Line: key.Line, Column: key.Column}
	}
	dep = deref(dep)
	labels := map[string]string{}
	maps.Copy(labels, strMap(dig(o.node, "metadata", "labels")))
	maps.Copy(labels, strMap(get(dep, "labels")))
	labels["app.kubernetes.io/name"] = o.name
	labels["app.kubernetes.io/managed-by"] = "kagent"
	p := &pod{
		o: o, spec: dep, specKey: key, labels: labels, annotations: get(dep, "annotations"),
		volumes: map[string]*yaml.Node{}, claims: map[string]bool{},
	}
	for _, v := range items(get(dep, "volumes")) {
		p.volumes[str(get(v, "name"))] = v
	}
	p.sec = f.securityContext(get(dep, "podSecurityContext"), true)
	// The container: the deployment mapping under the name the workload
	// goes by.
	at := dep
	if key != nil {
		at = key // the workload points at `deployment:`
	}
	c := &yaml.Node{Kind: yaml.MappingNode, Line: at.Line, Column: at.Column, Content: append([]*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "name", Line: dep.Line, Column: dep.Column},
		{Kind: yaml.ScalarNode, Value: "agent", Line: dep.Line, Column: dep.Column},
	}, withoutKey(dep, "name").Content...)}
	w := f.container(p, c, 0)
	w.ContainerType = "main"
	w.Role, w.RoleReason = "agent", "kagent Agent CRD"
	if w.ServiceAccountTokenFrom == "default" && get(dep, "serviceAccountName") == nil {
		w.ServiceAccount, w.ServiceAccountToken, w.ServiceAccountTokenFrom = "", nil, ""
	}
	f.doc.Workloads = append(f.doc.Workloads, w)
}

// withoutKey is mapping n without key k (a copy when it had one).
func withoutKey(n *yaml.Node, k string) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != k {
			out.Content = append(out.Content, n.Content[i], n.Content[i+1])
		}
	}
	return out
}
