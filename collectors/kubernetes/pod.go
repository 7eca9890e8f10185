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
	claims      map[string]bool // volumeClaimTemplates names (StatefulSet, agent-sandbox)
	sec         security
	// path names the pod spec within its object when the object holds
	// several (a RayCluster's head and worker groups), "" otherwise.
	path string
}

// workloads adds one model.Workload per container of every pod spec in o
// (findPodSpecs).
func (f *file) workloads(o object) {
	pods := findPodSpecs(o.node)
	for _, at := range pods {
		p := &pod{
			o: o, spec: at.spec, specKey: at.specKey,
			labels:      strMap(get(at.meta, "labels")),
			annotations: get(at.meta, "annotations"),
			volumes:     map[string]*yaml.Node{},
			claims:      map[string]bool{},
		}
		if len(pods) > 1 {
			p.path = shortPath(at.path)
			if at.name != "" {
				p.path = at.name
			}
		}
		for _, v := range items(at.volumes) {
			p.volumes[str(get(v, "name"))] = v
		}
		// StatefulSet and agent-sandbox keep volumeClaimTemplates beside
		// the pod template: each names a PVC made for the pod.
		for _, t := range items(get(at.holder, "volumeClaimTemplates")) {
			p.claims[str(dig(t, "metadata", "name"))] = true
		}
		p.sec = f.securityContext(get(at.spec, "securityContext"), true)
		for i, c := range at.containers {
			w := f.container(p, c, i)
			w.ContainerType = at.types[i]
			f.doc.Workloads = append(f.doc.Workloads, w)
		}
	}
}

// container builds the Workload of one container with its pod's settings.
func (f *file) container(p *pod, c *yaml.Node, i int) model.Workload {
	cname := str(get(c, "name"))
	if cname == "" {
		// Knative and Argo containers often have no name.
		cname = fmt.Sprintf("container-%d", i+1)
	}
	o := p.o
	name := o.name + "/" + cname
	if p.path != "" {
		name = o.name + "/" + p.path + "/" + cname
	}
	w := model.Workload{
		ID:        fmt.Sprintf("k8s:%s/%s/%s", o.kind, o.namespace, name),
		Source:    "kubernetes",
		Name:      name,
		Loc:       f.loc(c),
		Namespace: o.namespace,
		Labels:    p.labels,
		Object:    o.kind + "/" + o.namespace + "/" + o.name,
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
	if p.path != "" {
		desc = fmt.Sprintf("Kubernetes %s %s/%s %s container %s", o.kind, o.namespace, o.name, p.path, cname)
	}
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
