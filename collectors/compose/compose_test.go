package compose

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const (
	fakePAT    = "ghp_bBRsk29cztUX1kmObfEjdpyHGfY5PBNaNKNY"
	fakeOpenAI = "sk-proj-d7pMCapFTzdbKB1Ga8FPJsKbMnY0LcUwE4BoMMc8b6ZGZkWB"
)

// pat and openai are what the secrets package says of the fixture tokens:
// expectations follow the detector's naming, and fail loudly if it stops
// recognising them.
func pat() *model.SecretRef    { return mustDetect(fakePAT) }
func openai() *model.SecretRef { return mustDetect(fakeOpenAI) }

func mustDetect(v string) *model.SecretRef {
	r := secrets.Detect(v)
	if r == nil {
		panic("secrets.Detect does not recognise the fixture token " + v[:8] + "…")
	}
	return r
}

func collect(t *testing.T, path string, data []byte) *model.Document {
	t.Helper()
	doc := &model.Document{}
	if err := New().Collect(context.Background(), path, data, doc); err != nil {
		t.Fatalf("Collect(%s): %v", path, err)
	}
	return doc
}

func TestMatch(t *testing.T) {
	tests := map[string]bool{
		"docker-compose.yml":                  true,
		"deploy/docker-compose.override.yaml": true,
		"compose.yaml":                        true,
		"sandbox/compose.dev.yml":             true,
		"Compose.YML":                         true,
		"docker-compose.json":                 false,
		"compose":                             false,
		"my-compose.yml":                      false,
		".github/workflows/compose.yml":       false,
		"sub/.github/workflows/compose.yml":   false,
		"k8s/deployment.yaml":                 false,
	}
	for p, want := range tests {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCollectFixtures(t *testing.T) {
	const ins, hard = "fixtures/compose/insecure/docker-compose.yml", "fixtures/compose/hardened/compose.yaml"
	l := func(f string, n int) model.Loc { return model.Loc{File: f, Line: n} }
	s := func(f, v string, n int) model.Str { return model.Str{Value: v, Loc: l(f, n)} }
	sp := func(f, v string, n int) *model.Str { x := s(f, v, n); return &x }
	b := func(f string, v bool, n int) *model.Bool { return &model.Bool{Value: v, Loc: l(f, n)} }
	hardening := func(w model.Workload) model.Workload {
		w.ReadOnlyRoot = b(hard, true, 4)
		w.CapDrop = []model.Str{s(hard, "ALL", 5)}
		w.SecurityOpt = []model.Str{s(hard, "no-new-privileges:true", 7)}
		w.AllowPrivEsc = b(hard, false, 7)
		w.Runtime = sp(hard, "gvisor", 8)
		w.User = sp(hard, "10001:10001", 9)
		w.Restart = sp(hard, "no", 10)
		return w
	}
	tests := []struct {
		path      string
		want      []model.Workload
		wantCreds []model.Credential
	}{{
		path: ins,
		want: []model.Workload{{
			ID: "compose:" + ins + ":agent", Source: "compose", Name: "agent", Loc: l(ins, 7),
			Image:       sp(ins, "ghcr.io/acme/agent-sandbox:latest", 8),
			Privileged:  b(ins, true, 9),
			User:        sp(ins, "root", 10),
			NetworkMode: sp(ins, "host", 11),
			HostNetwork: b(ins, true, 11),
			HostPID:     b(ins, true, 12),
			CapAdd:      []model.Str{s(ins, "SYS_ADMIN", 14), s(ins, "NET_ADMIN", 15)},
			SecurityOpt: []model.Str{s(ins, "seccomp:unconfined", 17), s(ins, "apparmor=unconfined", 18)},
			Seccomp:     sp(ins, "unconfined", 17),
			Runtime:     sp(ins, "runc", 19),
			Restart:     sp(ins, "always", 20),
			Mounts: []model.Mount{
				{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock", Persistent: true, Loc: l(ins, 22)},
				{Type: "bind", Source: "~/.ssh", Target: "/home/agent/.ssh", ReadOnly: true, Persistent: true, Loc: l(ins, 23)},
				{Type: "bind", Source: "${HOME}/.aws", Target: "/root/.aws", Persistent: true, Loc: l(ins, 24)},
				{Type: "bind", Source: ".", Target: "/workspace", Persistent: true, WorkspaceRel: "fixtures/compose/insecure", Loc: l(ins, 25)},
				{Type: "volume", Source: "agent-home", Target: "/root", Persistent: true, Loc: l(ins, 26)},
			},
			Env: []model.EnvVar{
				{Name: "ANTHROPIC_API_KEY", SensitiveName: true, FromHost: "ANTHROPIC_API_KEY", HostSensitive: true, Loc: l(ins, 3)},
				{Name: "GIT_AUTHOR_NAME", Loc: l(ins, 4)},
				{Name: "GITHUB_TOKEN", SensitiveName: true, Secret: pat(), Loc: l(ins, 29)},
				{Name: "AWS_PROFILE", Loc: l(ins, 30)},
			},
			EnvFiles: []model.Str{s(ins, ".env", 32)},
			Ports:    []model.Str{s(ins, "8080:8080", 34)},
		}, {
			ID: "compose:" + ins + ":tools", Source: "compose", Name: "tools", Loc: l(ins, 36),
			Image:    sp(ins, "node:20", 37),
			HostIPC:  b(ins, true, 38),
			Networks: []string{"default"},
			Env: []model.EnvVar{
				{Name: "NPM_TOKEN", SensitiveName: true, FromHost: "NPM_TOKEN", HostSensitive: true, Loc: l(ins, 40)},
				{Name: "OPENAI_API_KEY", SensitiveName: true, Secret: openai(), Loc: l(ins, 41)},
			},
			Mounts: []model.Mount{
				{Type: "bind", Source: "/", Target: "/host", Persistent: true, Loc: l(ins, 43)},
				{Type: "volume", Source: "npm-cache", Target: "/root/.npm", Persistent: true, Loc: l(ins, 46)},
			},
		}},
		wantCreds: []model.Credential{
			{SecretRef: *pat(), Where: "env", Context: "compose service agent environment GITHUB_TOKEN", ReadableByAgent: true, Workload: "compose:" + ins + ":agent", Loc: l(ins, 29)},
			{SecretRef: *openai(), Where: "env", Context: "compose service tools environment OPENAI_API_KEY", ReadableByAgent: true, Workload: "compose:" + ins + ":tools", Loc: l(ins, 41)},
		},
	}, {
		path: hard,
		want: []model.Workload{hardening(model.Workload{
			ID: "compose:" + hard + ":agent", Source: "compose", Name: "agent", Loc: l(hard, 13),
			Image: sp(hard, "ghcr.io/acme/agent-sandbox@sha256:3b0c8f2d9e7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c", 15),
			Mounts: []model.Mount{
				{Type: "tmpfs", Target: "/tmp", Loc: l(hard, 18)},
				{Type: "tmpfs", Target: "/workspace", Loc: l(hard, 19)},
			},
			Env: []model.EnvVar{
				{Name: "HTTPS_PROXY", Loc: l(hard, 21)},
				{Name: "ANTHROPIC_API_KEY", SensitiveName: true, FromHost: "ANTHROPIC_API_KEY", HostSensitive: true, Loc: l(hard, 22)},
			},
			Egress:   &model.Egress{Restricted: true, By: "internal network: sandbox", Loc: l(hard, 16)},
			Networks: []string{"sandbox"},
		}), hardening(model.Workload{
			ID: "compose:" + hard + ":egress-proxy", Source: "compose", Name: "egress-proxy", Loc: l(hard, 24),
			Image:    sp(hard, "ghcr.io/acme/allowlist-proxy@sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928170615d4c3b2a190", 26),
			Networks: []string{"sandbox", "egress"},
		})},
	}}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			data, err := os.ReadFile("../../" + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			doc := collect(t, tt.path, data)
			if diff := cmp.Diff(tt.want, doc.Workloads); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCreds, doc.Credentials); diff != "" {
				t.Errorf("credentials (-want +got):\n%s", diff)
			}
			checkConsistent(t, tt.path, data, doc)
		})
	}
}
