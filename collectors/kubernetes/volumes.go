package kubernetes

import (
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// networkStorage are volume sources backed by storage that outlives the pod.
var networkStorage = map[string]bool{
	"nfs": true, "iscsi": true, "cephfs": true, "rbd": true, "glusterfs": true, "fc": true,
	"awsElasticBlockStore": true, "gcePersistentDisk": true, "azureDisk": true, "azureFile": true,
	"cinder": true, "portworxVolume": true, "vsphereVolume": true, "flocker": true,
	"quobyte": true, "scaleIO": true, "storageos": true, "photonPersistentDisk": true,
}

// mounts joins a container's volumeMounts with the pod's volumes. Volumes
// the container does not mount do not reach it and are left out.
func (f *file) mounts(p *pod, c *yaml.Node, w *model.Workload) {
	for _, vm := range items(get(c, "volumeMounts")) {
		name := str(get(vm, "name"))
		ro, _ := boolean(get(vm, "readOnly"))
		m := model.Mount{Target: str(get(vm, "mountPath")), ReadOnly: ro, Loc: f.loc(vm)}
		if v, ok := p.volumes[name]; ok {
			volumeSource(v, &m)
		} else if p.claims[name] {
			m.Type, m.Source, m.Persistent = "pvc", name, true
		} else {
			m.Type, m.Source = "unknown", name
		}
		if sub := str(get(vm, "subPath")); sub != "" && m.Type == "hostPath" {
			m.Source = strings.TrimSuffix(m.Source, "/") + "/" + sub
		}
		w.Mounts = append(w.Mounts, m)
	}
}

// volumeSource fills the type, source and persistence of a pod volume.
func volumeSource(v *yaml.Node, m *model.Mount) {
	switch {
	case get(v, "hostPath") != nil:
		m.Type, m.Source, m.Persistent = "hostPath", str(dig(v, "hostPath", "path")), true
	case get(v, "persistentVolumeClaim") != nil:
		m.Type, m.Source, m.Persistent = "pvc", str(dig(v, "persistentVolumeClaim", "claimName")), true
	case get(v, "emptyDir") != nil:
		// Source says whether it is tmpfs (Memory); either way it dies with the pod.
		m.Type, m.Source = "emptyDir", str(dig(v, "emptyDir", "medium"))
	case get(v, "secret") != nil:
		m.Type, m.Source = "secret", str(dig(v, "secret", "secretName"))
	case get(v, "configMap") != nil:
		m.Type, m.Source = "configmap", str(dig(v, "configMap", "name"))
	case get(v, "projected") != nil:
		m.Type, m.Source = "projected", projectedSources(get(v, "projected"))
	case get(v, "ephemeral") != nil:
		// A generic ephemeral volume is a PVC deleted with the pod.
		m.Type = "ephemeral"
	default:
		m.Type = "unknown"
		for _, e := range entries(v) {
			if k := e.key.Value; k != "name" {
				m.Type = k
				m.Persistent = networkStorage[k]
				break
			}
		}
	}
}

// projectedSources summarizes a projected volume, e.g.
// "secret:db,serviceAccountToken": a projected serviceAccountToken mounts an
// API token even when automount is off.
func projectedSources(n *yaml.Node) string {
	var out []string
	for _, s := range items(get(n, "sources")) {
		for _, e := range entries(s) {
			name := str(get(e.val, "name"))
			if name != "" {
				out = append(out, e.key.Value+":"+name)
			} else {
				out = append(out, e.key.Value)
			}
		}
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
