// Package kubernetes reads Kubernetes manifests: workloads (one model.Workload
// per container, with its pod's settings), NetworkPolicies, RuntimeClasses,
// ServiceAccounts, RBAC roles and bindings, and Secrets. It is the catch-all YAML collector: a YAML
// file without apiVersion and kind is not Kubernetes and adds nothing.
package kubernetes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/yamlpos"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// Collector reads Kubernetes manifests. Register it after every collector of
// a specific YAML file (workflows, compose…): it matches every *.yaml/*.yml.
type Collector struct{}

var (
	_ collectors.Collector = Collector{}
	_ collectors.Linker    = Collector{}
)

// Name implements collectors.Collector.
func (Collector) Name() string { return "kubernetes" }

// Match accepts every YAML file: whether it holds Kubernetes objects is only
// known once it is parsed.
func (Collector) Match(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}

// object is one Kubernetes object of a file (a List's items are objects).
type object struct {
	apiVersion, kind, name, namespace string
	node                              *yaml.Node
}

// Collect implements collectors.Collector. Objects decoded before a syntax
// error keep their facts: a broken last document does not hide the others.
func (Collector) Collect(ctx context.Context, p string, data []byte, doc *model.Document) error {
	objs, err := decode(ctx, data)
	f := &file{path: p, doc: doc}
	for _, o := range objs {
		f.object(o)
	}
	resolve(doc)
	return err
}

// decode reads every YAML document of data and returns its Kubernetes objects.
//
// A document that parses but defines a key twice (as when a missing ---
// joins two objects) is skipped and the documents after it are still read;
// its ParseError comes back with them, so the file is partly read. A
// syntax error stops the stream: the parser cannot go on.
func decode(ctx context.Context, data []byte) ([]object, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var objs []object
	var skipped error
	for {
		if err := ctx.Err(); err != nil {
			return objs, fmt.Errorf("read manifests: %w", err)
		}
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return objs, skipped
		}
		if err != nil {
			_, msg := splitYAMLError(err)
			line := yamlpos.ErrLine(err, data)
			if bytes.Contains(data, []byte("{{")) {
				msg += " (a Helm or Go template? scan its rendered output, e.g. helm template)"
			}
			if skipped != nil {
				return objs, skipped
			}
			return objs, &collectors.ParseError{Line: line, Err: fmt.Errorf("parse yaml: %s", msg)}
		}
		if err := checkExpansion(&n); err != nil {
			line := n.Line
			var ee *expansionError
			if errors.As(err, &ee) {
				line = ee.line
			}
			pe := &collectors.ParseError{Line: line, Err: fmt.Errorf("read yaml: %w", err)}
			if ee != nil && ee.dup {
				if skipped == nil {
					skipped = pe
				}
				continue
			}
			return objs, pe
		}
		if len(n.Content) > 0 {
			objs = appendObjects(objs, n.Content[0], "", "")
		}
	}
}

var yamlErrRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// splitYAMLError takes the line out of a yaml.v3 error ("yaml: line 3: …"):
// ParseError names it already.
func splitYAMLError(err error) (int, string) {
	msg := err.Error()
	m := yamlErrRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, msg
	}
	line, _ := strconv.Atoi(m[1])
	return line, msg[len(m[0]):]
}

// appendObjects adds n when it is a Kubernetes object, or its items when it
// is a List. A typed list (PodList) implies the kind and apiVersion of items
// that omit theirs.
func appendObjects(objs []object, n *yaml.Node, listVersion, listKind string) []object {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return objs
	}
	apiVersion, kind := str(get(n, "apiVersion")), str(get(n, "kind"))
	if kind == "" {
		kind = listKind
	}
	if apiVersion == "" && kind == listKind {
		apiVersion = listVersion
	}
	if apiVersion == "" || kind == "" {
		return objs
	}
	if strings.HasSuffix(kind, "List") && get(n, "items") != nil {
		for _, it := range items(get(n, "items")) {
			objs = appendObjects(objs, it, apiVersion, strings.TrimSuffix(kind, "List"))
		}
		return objs
	}
	meta := get(n, "metadata")
	ns := str(get(meta, "namespace"))
	if ns == "" {
		ns = "default"
	}
	name := str(get(meta, "name"))
	if name == "" {
		name = str(get(meta, "generateName"))
	}
	return append(objs, object{apiVersion: apiVersion, kind: kind, name: name, namespace: ns, node: n})
}

// kindGroups names the API groups each built-in kind is read from: a CRD
// may reuse a kind name with another schema (Calico's projectcalico.org
// NetworkPolicy).
var kindGroups = map[string][]string{
	"ServiceAccount": {""}, "Secret": {""}, "PersistentVolumeClaim": {""}, "Namespace": {""},
	"NetworkPolicy": {"networking.k8s.io", "extensions"}, "RuntimeClass": {"node.k8s.io"},
}

// builtin reports whether o is one of the built-in kinds of kindGroups,
// from its own API group.
func (o object) builtin() bool {
	for _, g := range kindGroups[o.kind] {
		if g == o.group() {
			return true
		}
	}
	return false
}

// file is the state of one Collect call.
type file struct {
	path    string
	doc     *model.Document
	skipped map[skipKey]int // index in doc.Skipped of each group
}

func (f *file) loc(n *yaml.Node) model.Loc {
	if n == nil {
		return model.Loc{File: f.path}
	}
	return model.Loc{File: f.path, Line: n.Line}
}

// object reads one object: policies, accounts, classes and namespaces as
// facts of their own; anything else is searched for pod specs, and an object
// that yields nothing is listed in Skipped with the reason.
func (f *file) object(o object) {
	f.doc.Raw = append(f.doc.Raw, model.RawDoc{File: f.path, Kind: "kubernetes", Content: raw(o.node, o.kind == "Secret")})
	g := o.group()
	switch {
	case o.builtin():
		f.builtinObject(o)
		return
	case g == "cilium.io" && (o.kind == "CiliumNetworkPolicy" || o.kind == "CiliumClusterwideNetworkPolicy"):
		f.ciliumPolicy(o)
		return
	case (g == "projectcalico.org" || g == "crd.projectcalico.org") && (o.kind == "NetworkPolicy" || o.kind == "GlobalNetworkPolicy"):
		f.calicoPolicy(o)
		return
	case otherPolicies[g+"/"+o.kind] != "":
		f.otherPolicy(o, otherPolicies[g+"/"+o.kind])
		return
	case g == agentsExtGroup && o.kind == "SandboxClaim":
		f.sandboxClaim(o)
		return
	case g == kagentGroup && o.kind == "Agent":
		f.kagentAgent(o)
		return
	case policyEngineGroups[g]:
		f.skip(o, reasonPolicyEngine)
		return
	case g == rbacGroup && f.rbacObject(o):
		// Read for what pods' service accounts may do, and still listed:
		// an RBAC object is not a workload.
		f.skip(o, reasonNoPodSpec)
		return
	case g == "kustomize.config.k8s.io":
		f.skip(o, reasonKustomize)
		return
	case noPodSpecGroups[g] || noPodSpecKinds[g+"/"+o.kind]:
		f.skip(o, reasonNoPodSpec)
		return
	}
	start := len(f.doc.Workloads)
	f.workloads(o)
	ws := f.doc.Workloads[start:]
	switch {
	case isAgentSandbox(o):
		f.agentSandbox(o, ws)
	case len(ws) > 0:
	case workloadKinds[o.kind] && (g == "" || g == "apps" || g == "batch" || g == "extensions"):
		f.skip(o, reasonNoContainers)
	default:
		f.skip(o, reasonNotFound)
	}
}

// workloadKinds are the built-in kinds that must hold a pod spec.
var workloadKinds = map[string]bool{
	"Pod": true, "PodTemplate": true, "ReplicationController": true, "Deployment": true,
	"StatefulSet": true, "DaemonSet": true, "ReplicaSet": true, "Job": true, "CronJob": true,
}

// builtinObject reads the built-in kinds that are facts of their own.
func (f *file) builtinObject(o object) {
	switch o.kind {
	case "NetworkPolicy":
		f.networkPolicy(o)
	case "RuntimeClass":
		f.doc.RuntimeClasses = append(f.doc.RuntimeClasses, model.RuntimeClass{
			Name: o.name, Handler: str(get(o.node, "handler")), Loc: f.loc(o.node),
		})
	case "ServiceAccount":
		sa := model.ServiceAccount{Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node)}
		if k, v := lookup(o.node, "automountServiceAccountToken"); v != nil {
			if b, ok := boolean(v); ok {
				sa.AutomountToken = &model.Bool{Value: b, Loc: f.loc(k)}
			}
		}
		f.doc.ServiceAccounts = append(f.doc.ServiceAccounts, sa)
	case "Secret":
		f.secretObject(o)
	case "Namespace":
		// A Namespace is cluster-scoped: its name is metadata.name.
		f.doc.Namespaces = append(f.doc.Namespaces, model.Namespace{
			Name: o.name, Labels: strMap(dig(o.node, "metadata", "labels")), Loc: f.loc(o.node),
		})
	case "PersistentVolumeClaim":
		// Only kept raw: a pod's pvc mount is persistent whatever the claim says.
	}
}

// CatchAll implements collectors.CatchAll: it claims every YAML file, so its
// claim says nothing about where a file target sits in its repository.
func (Collector) CatchAll() bool { return true }
