package kubernetes

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/roles"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// pod is what every container of a pod template shares.
type pod struct {
	o           object
	spec        *yaml.Node
	specKey     *yaml.Node // the `spec:` key, where an unset pod-level fact points
	labels      map[string]string
	annotations *yaml.Node
	volumes     map[string]*yaml.Node
	claims      map[string]bool // StatefulSet volumeClaimTemplates names
	sec         security
}

// podTemplate finds the pod template of a workload object: the object itself
// for a Pod, spec.template for controllers, spec.jobTemplate.spec.template
// for a CronJob.
func podTemplate(o object) (meta, specKey, spec *yaml.Node) {
	n := o.node
	switch o.kind {
	case "Pod":
	case "CronJob":
		n = dig(n, "spec", "jobTemplate", "spec", "template")
	case "PodTemplate":
		n = get(n, "template")
	default:
		n = dig(n, "spec", "template")
	}
	specKey, spec = lookup(n, "spec")
	if spec == nil || spec.Kind != yaml.MappingNode {
		return nil, nil, nil
	}
	return get(n, "metadata"), specKey, spec
}

// workloads adds one model.Workload per container of o's pod template.
func (f *file) workloads(o object) {
	meta, specKey, spec := podTemplate(o)
	if spec == nil {
		return
	}
	p := &pod{
		o: o, spec: spec, specKey: specKey,
		labels:      strMap(get(meta, "labels")),
		annotations: get(meta, "annotations"),
		volumes:     map[string]*yaml.Node{},
		claims:      map[string]bool{},
	}
	for _, v := range items(get(spec, "volumes")) {
		p.volumes[str(get(v, "name"))] = v
	}
	if o.kind == "StatefulSet" {
		for _, t := range items(dig(o.node, "spec", "volumeClaimTemplates")) {
			p.claims[str(dig(t, "metadata", "name"))] = true
		}
	}
	p.sec = f.securityContext(get(spec, "securityContext"), true)
	for _, group := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range items(get(spec, group)) {
			if c.Kind == yaml.MappingNode {
				f.doc.Workloads = append(f.doc.Workloads, f.container(p, c))
			}
		}
	}
}

// container builds the Workload of one container with its pod's settings.
func (f *file) container(p *pod, c *yaml.Node) model.Workload {
	cname := str(get(c, "name"))
	o := p.o
	w := model.Workload{
		ID:        fmt.Sprintf("k8s:%s/%s/%s/%s", o.kind, o.namespace, o.name, cname),
		Source:    "kubernetes",
		Name:      o.name + "/" + cname,
		Loc:       f.loc(c),
		Namespace: o.namespace,
		Labels:    p.labels,
		// Only the role key is kept: annotations carry large blobs
		// (last-applied-configuration) no rule needs.
		Annotations: roleAnnotation(p.annotations),
	}
	if v := get(c, "image"); str(v) != "" {
		w.Image = &model.Str{Value: str(v), Loc: f.loc(v)}
	}
	f.podFacts(p, &w)
	f.applySecurity(p, cname, f.securityContext(get(c, "securityContext"), false), &w)
	desc := fmt.Sprintf("Kubernetes %s %s/%s container %s", o.kind, o.namespace, o.name, cname)
	f.env(c, desc, &w)
	f.mounts(p, c, &w)
	f.ports(c, &w)
	f.commands(c, desc, &w)
	return w
}

// podFacts fills the facts set on the pod spec.
func (f *file) podFacts(p *pod, w *model.Workload) {
	spec := p.spec
	w.HostNetwork = f.boolFact(spec, "hostNetwork")
	w.HostPID = f.boolFact(spec, "hostPID")
	w.HostIPC = f.boolFact(spec, "hostIPC")
	if v := get(spec, "restartPolicy"); str(v) != "" {
		w.Restart = &model.Str{Value: str(v), Loc: f.loc(v)}
	}
	if v := get(spec, "runtimeClassName"); str(v) != "" {
		w.RuntimeClass = str(v)
		w.Runtime = &model.Str{Value: normalizeRuntime(w.RuntimeClass, ""), Loc: f.loc(v)}
	}
	w.ServiceAccount = str(get(spec, "serviceAccountName"))
	if w.ServiceAccount == "" {
		w.ServiceAccount = str(get(spec, "serviceAccount")) // deprecated alias
	}
	if w.ServiceAccount == "" {
		w.ServiceAccount = "default"
	}
	if k, v := lookup(spec, "automountServiceAccountToken"); v != nil {
		if b, ok := boolean(v); ok {
			w.ServiceAccountToken = &model.Bool{Value: b, Loc: f.loc(k)}
			w.ServiceAccountTokenFrom = "pod"
			return
		}
	}
	// Kubernetes mounts the token unless the ServiceAccount says otherwise;
	// resolve and Link look for that ServiceAccount.
	w.ServiceAccountToken = &model.Bool{Value: true, Loc: f.loc(p.specKey)}
	w.ServiceAccountTokenFrom = "default"
}

// boolFact reads a boolean field of mapping n as a fact at its key's line.
func (f *file) boolFact(n *yaml.Node, key string) *model.Bool {
	k, v := lookup(n, key)
	if b, ok := boolean(v); ok {
		return &model.Bool{Value: b, Loc: f.loc(k)}
	}
	return nil
}

// roleAnnotation keeps the sandbox-audit/role annotation of a pod template.
func roleAnnotation(n *yaml.Node) map[string]string {
	if v := get(n, roles.LabelKey); v != nil {
		return map[string]string{roles.LabelKey: str(v)}
	}
	return nil
}
