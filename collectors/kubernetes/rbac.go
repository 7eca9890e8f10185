package kubernetes

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const rbacGroup = "rbac.authorization.k8s.io"

// grantResources are the resources whose rights change what a pod's token
// can do to the sandboxes: start pods (directly or through a controller),
// run commands in them, or read the namespace's secrets.
var grantResources = map[string]bool{
	"*": true, "pods": true, "pods/exec": true, "pods/attach": true, "secrets": true,
	"deployments": true, "statefulsets": true, "daemonsets": true, "replicasets": true,
	"jobs": true, "cronjobs": true,
}

// grantVerbs are the verbs kept for them; reads matter for secrets only.
var grantVerbs = map[string]bool{"*": true, "create": true, "patch": true, "update": true, "get": true, "list": true, "watch": true}

var grantGroups = map[string]bool{"": true, "*": true, "apps": true, "batch": true}

// rbacObject reads a Role, ClusterRole, RoleBinding or ClusterRoleBinding:
// what each role allows on grantResources, and which service accounts each
// binding gives a role to. Link resolves a pod's service account through
// them (resolveGrants). It reports whether o was one of these kinds.
func (f *file) rbacObject(o object) bool {
	switch o.kind {
	case "Role", "ClusterRole":
		r := model.RBACRole{Kind: o.kind, Name: o.name, Namespace: o.namespace, Loc: f.loc(o.node)}
		if o.kind == "ClusterRole" {
			r.Namespace = ""
		}
		for _, rule := range items(get(o.node, "rules")) {
			// strList drops the core group's "".
			if !slices.ContainsFunc(items(get(rule, "apiGroups")), func(g *yaml.Node) bool { return grantGroups[str(g)] }) {
				continue
			}
			verbs := strList(get(rule, "verbs"))
			for _, res := range strList(get(rule, "resources")) {
				if !grantResources[res] {
					continue
				}
				for _, v := range verbs {
					if !grantVerbs[v] || (res != "secrets" && res != "*" && (v == "get" || v == "list" || v == "watch")) {
						continue
					}
					r.Grants = append(r.Grants, model.Grant{Verb: v, Resource: res, Loc: f.loc(rule)})
				}
			}
		}
		f.doc.RBACRoles = append(f.doc.RBACRoles, r)
	case "RoleBinding", "ClusterRoleBinding":
		ref := get(o.node, "roleRef")
		b := model.RBACBinding{
			Kind: o.kind, Name: o.name, Namespace: o.namespace,
			RoleKind: str(get(ref, "kind")), RoleName: str(get(ref, "name")), Loc: f.loc(o.node),
		}
		for _, s := range items(get(o.node, "subjects")) {
			if str(get(s, "kind")) != "ServiceAccount" || str(get(s, "name")) == "" {
				continue
			}
			ns := str(get(s, "namespace"))
			if ns == "" {
				ns = o.namespace
			}
			b.ServiceAccounts = append(b.ServiceAccounts, ns+"/"+str(get(s, "name")))
		}
		if b.RoleName != "" && len(b.ServiceAccounts) > 0 {
			f.doc.RBACBindings = append(f.doc.RBACBindings, b)
		}
	default:
		return false
	}
	return true
}

// resolveGrants sets every Kubernetes workload's ServiceAccountGrants: the
// rights its service account (default when the pod names none) holds
// through the bindings and roles of the scan. A binding to a role the scan
// does not hold grants nothing known.
func resolveGrants(doc *model.Document) {
	if len(doc.RBACBindings) == 0 {
		return
	}
	type roleKey struct{ kind, namespace, name string }
	roles := make(map[roleKey]*model.RBACRole, len(doc.RBACRoles))
	for i := range doc.RBACRoles {
		r := &doc.RBACRoles[i]
		k := roleKey{r.Kind, r.Namespace, r.Name}
		if _, dup := roles[k]; !dup {
			roles[k] = r
		}
	}
	byAccount := map[string][]model.Grant{}
	for _, b := range doc.RBACBindings {
		k := roleKey{b.RoleKind, "", b.RoleName}
		if b.RoleKind == "Role" {
			k.namespace = b.Namespace
		}
		r := roles[k]
		if r == nil {
			continue
		}
		for _, sa := range b.ServiceAccounts {
			for _, g := range r.Grants {
				g.Role = r.Kind + "/" + r.Name
				g.Binding = b.Kind + "/" + b.Name
				if !slices.ContainsFunc(byAccount[sa], func(h model.Grant) bool {
					return h.Verb == g.Verb && h.Resource == g.Resource
				}) {
					byAccount[sa] = append(byAccount[sa], g)
				}
			}
		}
	}
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		if w.Source != "kubernetes" {
			continue
		}
		sa := w.ServiceAccount
		if sa == "" {
			sa = "default"
		}
		w.ServiceAccountGrants = byAccount[w.Namespace+"/"+sa]
	}
}
