package kubernetes

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// The hardened scenario splits its objects across files: only Link joins the
// RuntimeClass and the NetworkPolicy to the Job's pod.
func TestHardenedScenario(t *testing.T) {
	const dir = "fixtures/scenarios/k8s-gvisor-hardened"
	doc := collectFiles(t, readDir(t, dir))
	job := func(line int) model.Loc { return model.Loc{File: dir + "/job.yaml", Line: line} }
	want := []model.Workload{{
		ID: "k8s:Job/agents/agent-task-1234/agent", Source: "kubernetes", Name: "agent-task-1234/agent", Loc: job(24),
		Image:        &model.Str{Value: "ghcr.io/example/coding-agent@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945", Loc: job(25)},
		Runtime:      &model.Str{Value: "gvisor", Loc: job(14)},
		RuntimeClass: "gvisor",
		User:         &model.Str{Value: "10001", Loc: job(20)},
		RunAsNonRoot: &model.Bool{Value: true, Loc: job(19)},
		CapDrop:      []model.Str{{Value: "ALL", Loc: job(30)}},
		Seccomp:      &model.Str{Value: "runtime/default", Loc: job(21)},
		AllowPrivEsc: &model.Bool{Value: false, Loc: job(27)},
		ReadOnlyRoot: &model.Bool{Value: true, Loc: job(28)},
		Egress: lists(&model.Egress{
			Restricted: true,
			Allow:      []string{"pods k8s-app=kube-dns in namespaces kubernetes.io/metadata.name=kube-system on UDP/53, TCP/53"},
			By:         "NetworkPolicy agents/agent-default-deny-egress",
			Loc:        model.Loc{File: dir + "/networkpolicy.yaml", Line: 2},
		}),
		Mounts: []model.Mount{
			{Type: "emptyDir", Target: "/workspace", Loc: job(38)},
			{Type: "emptyDir", Source: "Memory", Target: "/tmp", Loc: job(40)},
		},
		Env:                     []model.EnvVar{{Name: "ANTHROPIC_API_KEY", FromSecret: true, SensitiveName: true, Loc: job(32)}},
		Restart:                 &model.Str{Value: "Never", Loc: job(17)},
		ServiceAccountToken:     &model.Bool{Value: false, Loc: job(16)},
		ServiceAccountTokenFrom: "pod",
		ServiceAccount:          "agent",
		Namespace:               "agents",
		Labels:                  map[string]string{"app": "coding-agent"},
		Object:                  "Job/agents/agent-task-1234",
		ContainerType:           "main",
	}}
	if diff := cmp.Diff(want, doc.Workloads); diff != "" {
		t.Errorf("workloads (-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 0 {
		t.Errorf("hardened scenario has credentials: %+v", doc.Credentials)
	}
	wantNP := []model.NetworkPolicy{{
		Name: "agent-default-deny-egress", Namespace: "agents", PolicyTypes: []string{"Ingress", "Egress"}, EgressRules: 1,
		Loc:         model.Loc{File: dir + "/networkpolicy.yaml", Line: 2},
		PodSelector: model.LabelSelector{MatchLabels: map[string]string{"app": "coding-agent"}},
		EgressAllow: []string{"pods k8s-app=kube-dns in namespaces kubernetes.io/metadata.name=kube-system on UDP/53, TCP/53"},
		Kind:        "NetworkPolicy", APIVersion: "networking.k8s.io/v1", IsolatesEgress: true,
		Rules: []model.PolicyRule{{
			Action: "allow", Text: "pods k8s-app=kube-dns in namespaces kubernetes.io/metadata.name=kube-system on UDP/53, TCP/53",
			Loc: model.Loc{File: dir + "/networkpolicy.yaml", Line: 15},
		}},
	}}
	if diff := cmp.Diff(wantNP, doc.NetworkPolicies); diff != "" {
		t.Errorf("network policies (-want +got):\n%s", diff)
	}
}

// Without the pod-level automount, the token setting comes from the
// ServiceAccount in another file, and the fact points there.
func TestServiceAccountAcrossFiles(t *testing.T) {
	pod := `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: agents}
spec:
  serviceAccountName: agent
  runtimeClassName: sandboxed
  containers: [{name: c, image: x}]
`
	sa := `apiVersion: v1
kind: ServiceAccount
metadata: {name: agent, namespace: agents}
automountServiceAccountToken: false
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: sandboxed}
handler: kata-qemu
`
	doc := collectFiles(t, map[string]string{"a/pod.yaml": pod, "b/sa.yaml": sa})
	w := doc.Workloads[0]
	got := []any{w.ServiceAccountToken, w.ServiceAccountTokenFrom, w.Runtime}
	want := []any{
		&model.Bool{Value: false, Loc: model.Loc{File: "b/sa.yaml", Line: 4}}, "service-account",
		&model.Str{Value: "kata", Loc: model.Loc{File: "a/pod.yaml", Line: 6}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The same ServiceAccount name in another namespace does not apply.
	other := `apiVersion: v1
kind: ServiceAccount
metadata: {name: agent, namespace: other}
automountServiceAccountToken: false
`
	doc = collectFiles(t, map[string]string{"a/pod.yaml": pod, "b/sa.yaml": other})
	w = doc.Workloads[0]
	got = []any{w.ServiceAccountToken, w.ServiceAccountTokenFrom, w.Runtime.Value}
	want = []any{&model.Bool{Value: true, Loc: model.Loc{File: "a/pod.yaml", Line: 4}}, "default", "sandboxed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("other namespace (-want +got):\n%s", diff)
	}
}
