package kubernetes

import (
	"os"
	"testing"
)

// TestKagentAgent: a kagent Agent holds no pod spec; its deployment
// settings are the agent's container and pod, labelled the way the
// controller labels them, so an egress policy on those labels selects it.
func TestKagentAgent(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	doc := collectFiles(t, map[string]string{
		"insecure/agent.yaml": read("../../fixtures/kubernetes/kagent/insecure/agent.yaml"),
		"hardened/agent.yaml": read("../../fixtures/kubernetes/kagent/hardened/agent.yaml"),
	})
	if len(doc.Workloads) != 2 || len(doc.Skipped) != 0 {
		t.Fatalf("workloads %d, skipped %+v; want 2 workloads, none skipped", len(doc.Workloads), doc.Skipped)
	}
	byName := map[string]int{}
	for i, w := range doc.Workloads {
		byName[w.Name] = i
		if w.Role != "agent" || w.RoleReason != "kagent Agent CRD" || w.ContainerType != "main" {
			t.Errorf("%s: role %q (%q), type %q", w.Name, w.Role, w.RoleReason, w.ContainerType)
		}
	}
	ins := doc.Workloads[byName["triage-bot/agent"]]
	if ins.Line != 13 || ins.Namespace != "ops" || ins.Labels["app.kubernetes.io/name"] != "triage-bot" {
		t.Errorf("insecure: line %d, namespace %q, labels %v", ins.Line, ins.Namespace, ins.Labels)
	}
	if len(ins.Mounts) != 1 || ins.Mounts[0].Target != "/var/lib/notes" || !ins.Mounts[0].Persistent {
		t.Errorf("insecure mounts %+v, want the claim at /var/lib/notes, persistent", ins.Mounts)
	}
	if len(ins.Env) != 1 || ins.Env[0].Secret == nil {
		t.Errorf("insecure env %+v, want PAGER_TOKEN as a literal secret", ins.Env)
	}
	if ins.ServiceAccountToken != nil {
		t.Errorf("insecure: the account the controller uses is not written, token = %+v", ins.ServiceAccountToken)
	}
	if ins.Egress != nil && ins.Egress.Restricted {
		t.Errorf("insecure egress %+v, want unrestricted", ins.Egress)
	}
	h := doc.Workloads[byName["review-bot/agent"]]
	if h.Image == nil || h.Image.Value == "" || h.ServiceAccount != "review-bot" {
		t.Errorf("hardened: image %v, service account %q", h.Image, h.ServiceAccount)
	}
	if h.Egress == nil || !h.Egress.Restricted {
		t.Errorf("hardened egress %+v, want restricted by review-bot-egress", h.Egress)
	}
	if h.AllowPrivEsc == nil || h.AllowPrivEsc.Value {
		t.Errorf("hardened allowPrivilegeEscalation = %+v", h.AllowPrivEsc)
	}
}
