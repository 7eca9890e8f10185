package kubernetes

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// podAt is one pod spec found in an object.
type podAt struct {
	path    string     // where it sits, e.g. "spec.template.spec"
	spec    *yaml.Node // the pod spec mapping (pod-level fields)
	specKey *yaml.Node // the key the spec hangs from, where an unset pod-level fact points
	meta    *yaml.Node // the template's metadata (labels, annotations); nil when the shape has none
	holder  *yaml.Node // the mapping holding the template, where volumeClaimTemplates sit
	// containers are the container mappings; for a pod spec, those of
	// initContainers, containers and ephemeralContainers.
	containers []*yaml.Node
	types      []string // each container's Workload.ContainerType
	// volumes is the nearest `volumes` list: the pod spec's own, else an
	// enclosing one (an Argo Workflow's spec.volumes serve its templates).
	volumes *yaml.Node
	// name is the pod's own name when its shape has one (an Argo
	// template's name), for workload ids.
	name string
	// shape is "pod" for a Kubernetes pod spec, "argo" for an Argo Workflows
	// template (container / script / containerSet), "tekton" for Tekton
	// steps.
	shape string
}

// maxPodDepth bounds how deep the search looks: the deepest pod spec among
// the common shapes (a JobSet's spec.replicatedJobs[i].template.spec.template.spec)
// sits 7 levels down; 16 leaves room and keeps a hostile document cheap.
const maxPodDepth = 16

// findPodSpecs searches o for pod specs, whatever its kind: a mapping with a
// `containers` list whose items are mappings naming a container (name or
// image) is a Kubernetes PodSpec, wherever it sits — Pod `spec`, a
// controller's `spec.template.spec`, CronJob's `spec.jobTemplate.spec.template.spec`,
// agent-sandbox's `spec.podTemplate.spec`, Knative's `spec.template.spec`,
// Kubeflow's `spec.*ReplicaSpecs.<role>.template.spec`, Ray's
// `spec.headGroupSpec.template.spec` and `spec.workerGroupSpecs[i].template.spec`,
// KEDA ScaledJob's `spec.jobTemplate.spec.template.spec`, KServe's
// `spec.predictor`. Two shapes that list containers outside a PodSpec are
// read too: an Argo Workflows template (a mapping with a `container` or
// `script` that has an image, or a `containerSet`) and Tekton `steps` (a
// list of mappings with an image, with `sidecars`). The walk visits every
// node at most once, skips the object's metadata and status, goes at most
// maxPodDepth levels down and does not look inside a pod spec it found.
func findPodSpecs(root *yaml.Node) []podAt {
	var out []podAt
	// parent is the mapping holding n (through any list), grand the one
	// holding parent, key the key n hangs from.
	var walk func(n, parent, grand, key *yaml.Node, path string, depth int, volumes *yaml.Node)
	walk = func(n, parent, grand, key *yaml.Node, path string, depth int, volumes *yaml.Node) {
		n = deref(n)
		if n == nil || depth > maxPodDepth {
			return
		}
		switch n.Kind {
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, parent, grand, key, path+"["+strconv.Itoa(i)+"]", depth+1, volumes)
			}
			return
		case yaml.MappingNode:
		default:
			return
		}
		if v := get(n, "volumes"); v != nil && v.Kind == yaml.SequenceNode {
			volumes = v
		}
		if p, ok := podSpecAt(n, parent, grand, key, path, volumes); ok {
			out = append(out, p)
			return
		}
		for _, e := range entries(n) {
			k := e.key.Value
			if depth == 0 && (k == "metadata" || k == "status") {
				continue
			}
			walk(e.val, n, parent, e.key, join(path, k), depth+1, volumes)
		}
	}
	walk(root, nil, nil, nil, "", 0, nil)
	return out
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// podSpecAt reports whether mapping n is a pod spec (or one of the
// container-list shapes), and how it sits in its object.
func podSpecAt(n, parent, grand, key *yaml.Node, path string, volumes *yaml.Node) (podAt, bool) {
	p := podAt{path: path, spec: n, specKey: key, volumes: volumes}
	if key == nil {
		// The object itself (a Pod's spec is under "spec"; a bare mapping
		// with containers at the root is not a Kubernetes object).
		return p, false
	}
	if cs := containerItems(get(n, "containers")); cs != nil {
		p.shape = "pod"
		for _, g := range [][2]string{{"initContainers", "init"}, {"containers", "main"}, {"ephemeralContainers", "ephemeral"}} {
			cs := containerItems(get(n, g[0]))
			p.add(cs, g[1])
		}
		if key.Value == "spec" && parent != nil {
			// A template: metadata beside spec, and the template's own
			// holder keeps volumeClaimTemplates beside it.
			p.meta = get(parent, "metadata")
			p.holder = grand
		}
		if key.Value == "containerSet" {
			// Argo's containerSet: the template holding it is the pod.
			p.shape = "argo"
		}
		return p, true
	}
	for _, k := range []string{"container", "script"} {
		if c := get(n, k); c != nil && c.Kind == yaml.MappingNode && str(get(c, "image")) != "" {
			p.shape = "argo"
			p.name = str(get(n, "name"))
			p.add(containerItems(get(n, "initContainers")), "init")
			p.add([]*yaml.Node{c}, "main")
			p.add(containerItems(get(n, "sidecars")), "sidecar")
			p.meta = get(n, "metadata")
			return p, true
		}
	}
	if steps := containerItems(get(n, "steps")); steps != nil && withImage(steps) {
		p.shape = "tekton"
		p.add(steps, "step")
		p.add(containerItems(get(n, "sidecars")), "sidecar")
		return p, true
	}
	return p, false
}

func (p *podAt) add(cs []*yaml.Node, typ string) {
	for _, c := range cs {
		p.containers = append(p.containers, c)
		p.types = append(p.types, typ)
	}
}

// containerItems returns the items of a container list when every item is a
// mapping and at least one names a container; nil otherwise.
func containerItems(n *yaml.Node) []*yaml.Node {
	its := items(n)
	if len(its) == 0 {
		return nil
	}
	named := false
	for _, c := range its {
		if c == nil || c.Kind != yaml.MappingNode {
			return nil
		}
		named = named || str(get(c, "name")) != "" || str(get(c, "image")) != ""
	}
	if !named {
		return nil
	}
	return its
}

func withImage(cs []*yaml.Node) bool {
	for _, c := range cs {
		if str(get(c, "image")) != "" {
			return true
		}
	}
	return false
}

// shortPath names a pod spec inside its object for workload ids, dropping
// what every pod template shares: spec.workerGroupSpecs[0].template.spec
// becomes workerGroupSpecs[0].
func shortPath(path string) string {
	p := strings.TrimPrefix(path, "spec.")
	for _, suffix := range []string{".template.spec", ".podTemplate.spec", ".spec"} {
		if strings.HasSuffix(p, suffix) {
			return strings.TrimSuffix(p, suffix)
		}
	}
	return p
}
