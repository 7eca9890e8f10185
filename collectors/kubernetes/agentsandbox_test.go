package kubernetes

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const sandboxV1alpha1 = `apiVersion: agents.x-k8s.io/v1alpha1
kind: Sandbox
metadata: {name: dev, namespace: agents}
spec:
  podTemplate:
    metadata: {labels: {app: dev-sandbox}}
    spec:
      containers:
        - name: agent
          image: agent:1
          volumeMounts: [{name: home, mountPath: /home/agent}]
  volumeClaimTemplates:
    - metadata: {name: home}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  shutdownTime: "2026-06-01T00:00:00Z"
  shutdownPolicy: Delete
  replicas: 1
`

func TestSandboxCRD(t *testing.T) {
	doc := collectFiles(t, map[string]string{"sb.yaml": sandboxV1alpha1})
	if len(doc.Workloads) != 1 {
		t.Fatalf("want 1 workload, got %+v", doc.Workloads)
	}
	w := doc.Workloads[0]
	at := func(l int) model.Loc { return model.Loc{File: "sb.yaml", Line: l} }
	got := []any{w.ID, w.Role, w.RoleReason, w.Labels, w.Mounts, w.Shutdown, w.ServiceAccountToken, w.ServiceAccountTokenFrom, w.Egress}
	want := []any{
		"k8s:Sandbox/agents/dev/agent", "agent", "agent-sandbox Sandbox CRD", map[string]string{"app": "dev-sandbox"},
		[]model.Mount{{Type: "pvc", Source: "home", Target: "/home/agent", Persistent: true, Loc: at(11)}},
		&model.Str{Value: "shutdownTime 2026-06-01T00:00:00Z, shutdownPolicy Delete", Loc: at(15)},
		// A Sandbox made directly keeps Kubernetes' default.
		&model.Bool{Value: true, Loc: at(7)}, "default",
		(*model.Egress)(nil),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

const template = `apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxTemplate
metadata: {name: py, namespace: agents}
spec:
  podTemplate:
    metadata: {labels: {app: py-sandbox}}
    spec:
      containers:
        - name: runtime
          image: python-runtime:1
        - name: proxy
          image: squid:6
`

// A template in one file, its warm pool and a claim in another: the claim's
// labels and env reach the template's pod, the pool says how it is handed
// out, and a literal secret in the claim is a credential.
func TestSandboxClaimAcrossFiles(t *testing.T) {
	claims := `apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxWarmPool
metadata: {name: pool, namespace: agents}
spec: {replicas: 4, sandboxTemplateRef: {name: py}}
---
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxClaim
metadata: {name: task-1, namespace: agents}
spec:
  warmPoolRef: {name: pool}
  additionalPodMetadata: {labels: {task: t1}}
  env:
    - {name: GITHUB_TOKEN, value: ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d}
    - {name: PROXY_MODE, value: strict, containerName: proxy}
  lifecycle: {shutdownTime: "2026-06-01T00:00:00Z", ttlSecondsAfterFinished: 300}
`
	doc := collectFiles(t, map[string]string{"a/template.yaml": template, "b/claims.yaml": claims})
	if len(doc.Workloads) != 2 {
		t.Fatalf("want the template's 2 containers, got %+v", doc.Workloads)
	}
	c := func(l int) model.Loc { return model.Loc{File: "b/claims.yaml", Line: l} }
	ghp := secrets.DetectNamed("GITHUB_TOKEN", "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d")
	pool := &model.Str{Value: "fresh: SandboxWarmPool agents/pool keeps 4 ready sandboxes; a claim adopts one no claim used, and it is deleted with the claim", Loc: c(1)}
	shutdown := &model.Str{Value: "SandboxClaim agents/task-1: shutdownTime 2026-06-01T00:00:00Z, ttlSecondsAfterFinished 300", Loc: c(15)}
	labels := map[string]string{"app": "py-sandbox", "task": "t1"}
	type summary struct {
		ID, Role   string
		Labels     map[string]string
		Env        []model.EnvVar
		Pool, Shut *model.Str
		Token      bool
		From       string
	}
	var got []summary
	for _, w := range doc.Workloads {
		got = append(got, summary{w.ID, w.Role, w.Labels, w.Env, w.Pool, w.Shutdown, w.ServiceAccountToken.Value, w.ServiceAccountTokenFrom})
	}
	want := []summary{
		{"k8s:SandboxTemplate/agents/py/runtime", "agent", labels,
			[]model.EnvVar{{Name: "GITHUB_TOKEN", Secret: ghp, SensitiveName: true, Loc: c(13)}}, pool, shutdown, false, "sandbox-template"},
		{"k8s:SandboxTemplate/agents/py/proxy", "agent", labels,
			[]model.EnvVar{{Name: "PROXY_MODE", Loc: c(14)}}, pool, shutdown, false, "sandbox-template"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 1 || doc.Credentials[0].Context != "agent-sandbox SandboxClaim agents/task-1 env GITHUB_TOKEN" {
		t.Errorf("credentials = %+v, want the claim's GITHUB_TOKEN", doc.Credentials)
	}
	for _, r := range doc.SandboxRefs {
		if r.Resolved != "template" {
			t.Errorf("%s %s resolved %q, want template", r.Kind, r.Name, r.Resolved)
		}
	}
	// Link runs once per scan; again, it adds nothing twice.
	Collector{}.Link(doc)
	if n := len(doc.Workloads[0].Env); n != 1 {
		t.Errorf("second Link: %d env entries, want 1", n)
	}
}

// A claim or pool whose template (or pool) is not in the scan asked for a pod
// nobody audited: it is listed, never passed over.
func TestSandboxClaimMissingTemplate(t *testing.T) {
	doc := collectFiles(t, map[string]string{"claims.yaml": `apiVersion: extensions.agents.x-k8s.io/v1alpha1
kind: SandboxClaim
metadata: {name: c1, namespace: agents}
spec: {sandboxTemplateRef: {name: elsewhere}}
---
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxClaim
metadata: {name: c2, namespace: agents}
spec: {warmPoolRef: {name: nopool}}
---
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxWarmPool
metadata: {name: p, namespace: agents}
spec: {replicas: 1, sandboxTemplateRef: {name: elsewhere}}
---
apiVersion: extensions.agents.x-k8s.io/v1beta1
kind: SandboxClaim
metadata: {name: c3, namespace: agents}
spec: {}
`})
	want := []string{
		"SandboxClaim " + reasonNoTemplateRef + " ×1",
		"SandboxClaim " + reasonTemplateGone + " ×1",
		"SandboxClaim " + reasonWarmPoolGone + " ×1",
		"SandboxWarmPool " + reasonTemplateGone + " ×1",
	}
	if diff := cmp.Diff(want, skips(doc)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSandboxTemplatePolicy(t *testing.T) {
	tmpl := func(extra string) string { return template[:len(template)-1] + "\n" + extra }
	at := model.Loc{File: "t.yaml", Line: 1}
	tests := []struct {
		name string
		yaml string
		want *model.Egress
	}{
		{"managed default allows the public internet", template, lists(&model.Egress{
			Restricted: true, AllowAll: true,
			Allow: []string{"the public internet (agent-sandbox default: 0.0.0.0/0 except 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16; ::/0 except fc00::/7)"},
			By:    "agent-sandbox NetworkPolicy agents/py-network-policy (SandboxTemplate py)", Loc: at,
		})},
		{"custom egress", tmpl("  networkPolicy:\n    egress:\n      - to: [{ipBlock: {cidr: 10.9.0.10/32}}]\n        ports: [{port: 3128}]\n"), lists(&model.Egress{
			Restricted: true, Allow: []string{"10.9.0.10/32 on TCP/3128"},
			By: "agent-sandbox NetworkPolicy agents/py-network-policy (SandboxTemplate py)", Loc: model.Loc{File: "t.yaml", Line: 13},
		})},
		{"custom without egress denies all", tmpl("  networkPolicy:\n    ingress: []\n"), lists(&model.Egress{
			Restricted: true,
			By:         "agent-sandbox NetworkPolicy agents/py-network-policy (SandboxTemplate py)", Loc: model.Loc{File: "t.yaml", Line: 13},
		})},
		{"unmanaged leaves it to other policies", tmpl("  networkPolicyManagement: Unmanaged\n"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collectFiles(t, map[string]string{"t.yaml": tt.yaml})
			if diff := cmp.Diff(tt.want, doc.Workloads[0].Egress); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// An unmanaged template's pods are selected by the CNI's own policy,
	// through the template's labels.
	cnp := `apiVersion: cilium.io/v2
kind: CiliumNetworkPolicy
metadata: {name: py-egress, namespace: agents}
spec:
  endpointSelector: {matchLabels: {app: py-sandbox}}
  egress:
    - toFQDNs: [{matchName: pypi.org}]
      toPorts: [{ports: [{port: "443", protocol: TCP}]}]
`
	doc := collectFiles(t, map[string]string{"t.yaml": tmpl("  networkPolicyManagement: Unmanaged\n"), "cnp.yaml": cnp})
	want := lists(&model.Egress{
		Restricted: true, Allow: []string{"pypi.org on TCP/443"},
		By: "CiliumNetworkPolicy agents/py-egress", Loc: model.Loc{File: "cnp.yaml", Line: 5},
	})
	if diff := cmp.Diff(want, doc.Workloads[0].Egress); diff != "" {
		t.Errorf("unmanaged + Cilium (-want +got):\n%s", diff)
	}
}

// An early v1alpha1 SandboxWarmPool carries its own pod template.
func TestWarmPoolOwnPod(t *testing.T) {
	doc := collectFiles(t, map[string]string{"p.yaml": `apiVersion: extensions.agents.x-k8s.io/v1alpha1
kind: SandboxWarmPool
metadata: {name: p, namespace: agents}
spec:
  replicas: 2
  podTemplate: {spec: {containers: [{name: c, image: x}]}}
---
apiVersion: extensions.agents.x-k8s.io/v1alpha1
kind: SandboxClaim
metadata: {name: c, namespace: agents}
spec: {sandboxTemplateRef: {name: ""}, warmpool: p, lifecycle: {shutdownPolicy: Delete}}
`})
	if len(doc.Workloads) != 1 {
		t.Fatalf("want the pool's workload, got %+v", doc.Workloads)
	}
	w := doc.Workloads[0]
	if w.Role != "agent" || w.RoleReason != "agent-sandbox SandboxWarmPool CRD" || w.Pool == nil || w.Shutdown == nil {
		t.Errorf("pool workload = role %q (%q), pool %+v, shutdown %+v", w.Role, w.RoleReason, w.Pool, w.Shutdown)
	}
	if len(doc.Skipped) != 0 {
		t.Errorf("skipped = %+v", doc.Skipped)
	}
}

// A claim naming a pool written without a namespace (kustomize or kubectl -n
// sets it at apply time) is told apart from one naming a missing pool.
func TestSandboxClaimOtherNamespace(t *testing.T) {
	doc := collectFiles(t, map[string]string{
		"claim.yaml": "apiVersion: extensions.agents.x-k8s.io/v1beta1\nkind: SandboxClaim\nmetadata: {name: c, namespace: team}\nspec: {warmPoolRef: {name: pool}}\n",
		"pool.yaml":  "apiVersion: extensions.agents.x-k8s.io/v1beta1\nkind: SandboxWarmPool\nmetadata: {name: pool}\nspec: {replicas: 1, sandboxTemplateRef: {name: t}}\n",
		"t.yaml":     "apiVersion: extensions.agents.x-k8s.io/v1beta1\nkind: SandboxTemplate\nmetadata: {name: t}\nspec: {podTemplate: {spec: {containers: [{name: c, image: x}]}}}\n",
	})
	want := []string{"SandboxClaim its SandboxWarmPool is in the scan only in another namespace: the sandbox's pod is not audited (a namespace set at apply time, e.g. by kustomize, is not known to the scan) ×1"}
	if diff := cmp.Diff(want, skips(doc)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
