package kubernetes

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const rbacObjects = `apiVersion: v1
kind: ServiceAccount
metadata: {name: runner-sa, namespace: sandboxes}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-manager, namespace: sandboxes}
rules:
- apiGroups: [""]
  resources: ["pods", "pods/exec", "pods/log", "configmaps"]
  verbs: ["*"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: secret-reader}
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: pod-manager, namespace: sandboxes}
subjects:
- {kind: ServiceAccount, name: runner-sa}
- {kind: User, name: alice}
roleRef: {kind: Role, name: pod-manager, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: reads}
subjects:
- {kind: ServiceAccount, name: runner-sa, namespace: sandboxes}
roleRef: {kind: ClusterRole, name: secret-reader, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: elsewhere, namespace: other}
subjects:
- {kind: ServiceAccount, name: runner-sa}
roleRef: {kind: Role, name: pod-manager, apiGroup: rbac.authorization.k8s.io}
`

const rbacPods = `apiVersion: v1
kind: Pod
metadata: {name: manager, namespace: sandboxes}
spec:
  serviceAccountName: runner-sa
  containers: [{name: c, image: example/manager}]
---
apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: sandboxes}
spec:
  containers: [{name: c, image: example/plain}]
---
apiVersion: v1
kind: Pod
metadata: {name: same-name-other-ns, namespace: other2}
spec:
  serviceAccountName: runner-sa
  containers: [{name: c, image: example/plain}]
`

// TestRBACGrants: a pod's service account gets the rights of the roles
// bound to it in another file, by Role in the binding's namespace and by
// ClusterRole anywhere; a binding in another namespace, a User subject, a
// read of anything but secrets and resources outside the list give nothing.
func TestRBACGrants(t *testing.T) {
	doc := &model.Document{}
	for name, text := range map[string]string{"rbac.yaml": rbacObjects, "pods.yaml": rbacPods} {
		if err := (Collector{}).Collect(context.Background(), name, []byte(text), doc); err != nil {
			t.Fatal(err)
		}
	}
	Collector{}.Link(doc)
	got := map[string][]model.Grant{}
	for _, w := range doc.Workloads {
		got[w.Name] = w.ServiceAccountGrants
	}
	pm := func(verb, res string, line int) model.Grant {
		return model.Grant{Verb: verb, Resource: res, Role: "Role/pod-manager", Binding: "RoleBinding/pod-manager", Loc: model.Loc{File: "rbac.yaml", Line: line}}
	}
	want := map[string][]model.Grant{
		"manager/c": {
			pm("*", "pods", 9), pm("*", "pods/exec", 9),
			{Verb: "get", Resource: "secrets", Role: "ClusterRole/secret-reader", Binding: "ClusterRoleBinding/reads", Loc: model.Loc{File: "rbac.yaml", Line: 20}},
			{Verb: "list", Resource: "secrets", Role: "ClusterRole/secret-reader", Binding: "ClusterRoleBinding/reads", Loc: model.Loc{File: "rbac.yaml", Line: 20}},
		},
		"plain/c":              nil,
		"same-name-other-ns/c": nil,
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("grants (-want +got):\n%s", d)
	}
	// RBAC objects are read, and still listed as objects that hold no pod spec.
	n := 0
	for _, s := range doc.Skipped {
		if s.APIVersion == "rbac.authorization.k8s.io/v1" {
			n += s.Count
		}
	}
	if n != 5 {
		t.Errorf("skipped RBAC objects = %d, want 5", n)
	}
}
