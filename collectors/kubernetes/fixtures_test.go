package kubernetes

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// collectFiles runs Collect on each file (in name order) into one document,
// then Link, the way the scan does.
func collectFiles(t *testing.T, files map[string]string) *model.Document {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	doc := &model.Document{}
	for _, n := range names {
		part := &model.Document{}
		if err := (Collector{}).Collect(context.Background(), n, []byte(files[n]), part); err != nil {
			t.Fatalf("Collect(%s): %v", n, err)
		}
		doc.Merge(part)
	}
	Collector{}.Link(doc)
	return doc
}

// readDir loads every YAML file of a fixture directory, keyed by the path a
// scan rooted at the repository would give.
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[dir+"/"+filepath.Base(p)] = string(b)
	}
	return files
}

func TestInsecurePodFixture(t *testing.T) {
	const f = "fixtures/kubernetes/insecure-pod.yaml"
	doc := collectFiles(t, readDir(t, "fixtures/kubernetes"))
	at := func(line int) model.Loc { return model.Loc{File: f, Line: line} }
	ghp := "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"
	sk := "sk-proj-FAc9QeWJKY40uvSwMFLZDe1f8rESQedUStPKR0CsTy4Qwb8D"
	ghpRef, skRef := secrets.Detect(ghp), secrets.Detect(sk)
	if ghpRef == nil || skRef == nil || ghpRef.Fingerprint != secrets.Fingerprint(ghp) {
		t.Fatalf("secrets.Detect does not recognise the fixture tokens: %v %v", ghpRef, skRef)
	}
	want := model.Workload{
		ID: "k8s:Pod/agents/agent-sandbox/agent", Source: "kubernetes", Name: "agent-sandbox/agent", Loc: at(16),
		Image:        &model.Str{Value: "ghcr.io/example/coding-agent:latest", Loc: at(17)},
		Privileged:   &model.Bool{Value: true, Loc: at(19)},
		User:         &model.Str{Value: "0", Loc: at(20)},
		AllowPrivEsc: &model.Bool{Value: true, Loc: at(21)},
		CapAdd:       []model.Str{{Value: "SYS_ADMIN", Loc: at(23)}, {Value: "NET_ADMIN", Loc: at(23)}},
		Seccomp:      &model.Str{Value: "unconfined", Loc: at(24)},
		HostNetwork:  &model.Bool{Value: true, Loc: at(13)},
		HostPID:      &model.Bool{Value: true, Loc: at(14)},
		Mounts: []model.Mount{
			{Type: "hostPath", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock", Persistent: true, Loc: at(34)},
			{Type: "pvc", Source: "agent-workspace", Target: "/workspace", Persistent: true, Loc: at(36)},
		},
		Env: []model.EnvVar{
			{Name: "GITHUB_TOKEN", Secret: ghpRef, SensitiveName: true, Loc: at(27)},
			{Name: "OPENAI_API_KEY", Secret: skRef, SensitiveName: true, Loc: at(29)},
			{Name: "LOG_LEVEL", Loc: at(31)},
		},
		Ports:                   []model.Str{{Value: "8080:8080/TCP", Loc: at(39)}},
		ServiceAccountToken:     &model.Bool{Value: true, Loc: at(12)},
		ServiceAccountTokenFrom: "default",
		ServiceAccount:          "default",
		Namespace:               "agents",
		Labels:                  map[string]string{"app": "coding-agent"},
		Object:                  "Pod/agents/agent-sandbox",
		ContainerType:           "main",
	}
	var got *model.Workload
	for i := range doc.Workloads {
		if doc.Workloads[i].ID == want.ID {
			got = &doc.Workloads[i]
		}
	}
	if got == nil {
		t.Fatalf("no workload %s in %+v", want.ID, doc.Workloads)
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("pod workload (-want +got):\n%s", diff)
	}
	wantCreds := []model.Credential{
		{SecretRef: *ghpRef, Where: "env", Context: "Kubernetes Pod agents/agent-sandbox container agent env GITHUB_TOKEN", ReadableByAgent: true, Loc: at(28)},
		{SecretRef: *skRef, Where: "env", Context: "Kubernetes Pod agents/agent-sandbox container agent env OPENAI_API_KEY", ReadableByAgent: true, Loc: at(30)},
	}
	var gotCreds []model.Credential
	for _, c := range doc.Credentials {
		if c.File == f {
			gotCreds = append(gotCreds, c)
		}
	}
	if diff := cmp.Diff(wantCreds, gotCreds); diff != "" {
		t.Errorf("credentials (-want +got):\n%s", diff)
	}
	// No secret value may reach the rule input, raw documents included.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal document: %v", err)
	}
	for _, s := range []string{ghp, sk, "ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR"} {
		if strings.Contains(string(b), s) {
			t.Errorf("document holds the secret %s…", s[:8])
		}
	}
}

func TestInsecureDeploymentFixture(t *testing.T) {
	const f = "fixtures/kubernetes/insecure-deployment.yaml"
	doc := collectFiles(t, readDir(t, "fixtures/kubernetes"))
	at := func(line int) model.Loc { return model.Loc{File: f, Line: line} }
	type summary struct {
		ID     string
		Token  *model.Bool
		From   string
		Egress *model.Egress
		Mounts []model.Mount
		Opts   []model.Str
	}
	egress := lists(&model.Egress{Restricted: true, AllowAll: true, Allow: []string{"any destination"}, By: "NetworkPolicy agents/runner-egress", Loc: at(77)})
	token := &model.Bool{Value: true, Loc: at(9)}
	want := []summary{
		{ID: "k8s:Deployment/agents/agent-runner/setup", Token: token, From: "service-account", Egress: egress,
			Mounts: []model.Mount{{Type: "pvc", Source: "runner-cache", Target: "/cache", Persistent: true, Loc: at(55)}}},
		{ID: "k8s:Deployment/agents/agent-runner/runner", Token: token, From: "service-account", Egress: egress,
			Mounts: []model.Mount{
				{Type: "pvc", Source: "runner-cache", Target: "/home/runner/.cache", Persistent: true, Loc: at(64)},
				{Type: "hostPath", Source: "/home", Target: "/host-home", ReadOnly: true, Persistent: true, Loc: at(66)},
			},
			Opts: []model.Str{{Value: "apparmor=unconfined", Loc: at(46)}}},
	}
	var got []summary
	for _, w := range doc.Workloads {
		if w.File == f {
			got = append(got, summary{w.ID, w.ServiceAccountToken, w.ServiceAccountTokenFrom, w.Egress, w.Mounts, w.SecurityOpt})
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deployment workloads (-want +got):\n%s", diff)
	}
	ghp := "ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR"
	wantCred := model.Credential{
		SecretRef: *secrets.DetectNamed("GH_TOKEN", ghp),
		Where:     "file", Context: "Kubernetes Secret agents/runner-tokens key GH_TOKEN", ReadableByAgent: true, Loc: at(28),
	}
	found := false
	for _, c := range doc.Credentials {
		found = found || cmp.Equal(c, wantCred)
	}
	if !found {
		t.Errorf("Secret credential %+v not in %+v", wantCred, doc.Credentials)
	}
}

// egressByID collects a fixture directory and returns each workload's egress.
func egressByID(t *testing.T, dir string) map[string]*model.Egress {
	t.Helper()
	doc := collectFiles(t, readDir(t, dir))
	out := map[string]*model.Egress{}
	for _, w := range doc.Workloads {
		out[w.ID] = w.Egress
	}
	return out
}

func TestAgentSandboxFixtures(t *testing.T) {
	const in, hard = "fixtures/kubernetes/agent-sandbox/insecure", "fixtures/kubernetes/agent-sandbox/hardened"
	world := lists(&model.Egress{
		Restricted: true, AllowAll: true, Allow: []string{"entity world (every destination outside the cluster)"},
		By: "CiliumNetworkPolicy agents/builder-egress", Loc: model.Loc{File: in + "/docker-sandbox.yaml", Line: 42},
	})
	want := map[string]*model.Egress{
		"k8s:SandboxTemplate/agents/coder/coder": lists(&model.Egress{
			Restricted: true, AllowAll: true,
			Allow: []string{"the public internet (agent-sandbox default: 0.0.0.0/0 except 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16; ::/0 except fc00::/7)"},
			By:    "agent-sandbox NetworkPolicy agents/coder-network-policy (SandboxTemplate coder)", Loc: model.Loc{File: in + "/template.yaml", Line: 4},
		}),
		"k8s:Sandbox/agents/builder/agent": world,
		"k8s:Sandbox/agents/builder/dind":  world,
	}
	if diff := cmp.Diff(want, egressByID(t, in)); diff != "" {
		t.Errorf("insecure (-want +got):\n%s", diff)
	}
	// The template's own policy and the cluster-wide Cilium one (selected
	// through the Namespace's label) add up; both deny by default.
	want = map[string]*model.Egress{
		"k8s:SandboxTemplate/agents/coder/coder": lists(&model.Egress{
			Restricted: true,
			Allow: []string{
				"api.anthropic.com on TCP/443",
				"pods k8s-app=kube-dns in namespaces kubernetes.io/metadata.name=kube-system on UDP/53",
				"10.40.0.12/32 on TCP/3128",
			},
			By: "CiliumClusterwideNetworkPolicy sandboxes-default-deny", Loc: model.Loc{File: hard + "/cilium.yaml", Line: 8},
		}),
	}
	if diff := cmp.Diff(want, egressByID(t, hard)); diff != "" {
		t.Errorf("hardened (-want +got):\n%s", diff)
	}
}

func TestCalicoFixtures(t *testing.T) {
	const in, hard = "fixtures/kubernetes/calico/insecure", "fixtures/kubernetes/calico/hardened"
	want := map[string]*model.Egress{"k8s:Deployment/agents/agent-runner/runner": lists(&model.Egress{
		Restricted: true, AllowAll: true, Allow: []string{"nets 0.0.0.0/0"},
		By: "CalicoNetworkPolicy agents/runner-internet", Loc: model.Loc{File: in + "/runner.yaml", Line: 37},
	})}
	if diff := cmp.Diff(want, egressByID(t, in)); diff != "" {
		t.Errorf("insecure (-want +got):\n%s", diff)
	}
	want = map[string]*model.Egress{"k8s:Deployment/agents/agent-runner/runner": lists(&model.Egress{
		Restricted: true,
		Allow:      []string{"api.github.com, api.anthropic.com on TCP/443", "any destination on UDP/53 (passed on to the namespace profile)"},
		Deny:       []string{"nets 169.254.169.254/32", "any destination"},
		By:         "CalicoNetworkPolicy agents/runner-egress", Loc: model.Loc{File: hard + "/runner.yaml", Line: 49},
	})}
	if diff := cmp.Diff(want, egressByID(t, hard)); diff != "" {
		t.Errorf("hardened (-want +got):\n%s", diff)
	}
}
