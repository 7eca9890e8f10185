package devcontainer

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
		".devcontainer/devcontainer.json":        true,
		".devcontainer.json":                     true,
		"svc/.devcontainer.json":                 true,
		".devcontainer/python/devcontainer.json": true,
		"a/b/.devcontainer/devcontainer.json":    true,
		"devcontainer.json":                      true,
		"config/devcontainer.json":               true,
		".devcontainer/a/b/devcontainer.json":    true,
		"devcontainer.jsonc":                     false,
		".devcontainer/Dockerfile":               false,
		".devcontainer/devcontainer-lock.json":   false,
	}
	for p, want := range tests {
		if got := New().Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCollectFixtures(t *testing.T) {
	const (
		ins  = "fixtures/devcontainer/insecure/.devcontainer/devcontainer.json"
		hard = "fixtures/devcontainer/hardened/.devcontainer/devcontainer.json"
	)
	l := func(f string, n int) model.Loc { return model.Loc{File: f, Line: n} }
	s := func(f, v string, n int) model.Str { return model.Str{Value: v, Loc: l(f, n)} }
	sp := func(f, v string, n int) *model.Str { x := s(f, v, n); return &x }
	b := func(f string, v bool, n int) *model.Bool { return &model.Bool{Value: v, Loc: l(f, n)} }
	tests := []struct {
		path      string
		want      model.Workload
		wantCreds []model.Credential
	}{{
		path: ins,
		want: model.Workload{
			ID: "devcontainer:" + ins, Source: "devcontainer", Name: "agent-sandbox", Loc: l(ins, 2),
			Image: sp(ins, "mcr.microsoft.com/devcontainers/typescript-node:latest", 4),
			Features: []model.Str{
				s(ins, "ghcr.io/devcontainers/features/docker-outside-of-docker", 6),
				s(ins, "ghcr.io/devcontainers/features/github-cli", 7),
			},
			Mounts: []model.Mount{
				{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker-host.sock", Persistent: true, Loc: l(ins, 6)},
				{Type: "bind", Source: "${localEnv:HOME}/.ssh", Target: "/home/node/.ssh", Persistent: true, Loc: l(ins, 15)},
				{Type: "bind", Source: "${localEnv:HOME}/.aws", Target: "/home/node/.aws", ReadOnly: true, Persistent: true, Loc: l(ins, 16)},
				{Type: "volume", Source: "agent-history", Target: "/commandhistory", Persistent: true, Loc: l(ins, 17)},
			},
			CapAdd:      []model.Str{s(ins, "SYS_ADMIN", 10)},
			SecurityOpt: []model.Str{s(ins, "seccomp=unconfined", 11)},
			Seccomp:     sp(ins, "unconfined", 11),
			NetworkMode: sp(ins, "host", 12),
			HostNetwork: b(ins, true, 12),
			Env: []model.EnvVar{
				{Name: "GITHUB_TOKEN", SensitiveName: true, FromHost: "GITHUB_TOKEN", HostSensitive: true, Loc: l(ins, 20)},
				{Name: "OPENAI_API_KEY", SensitiveName: true, Secret: openai(), Loc: l(ins, 21)},
				{Name: "NPM_TOKEN", SensitiveName: true, FromHost: "NPM_TOKEN", HostSensitive: true, Loc: l(ins, 23)},
			},
			Commands: []model.Command{
				{Phase: "initialize", OnHost: true, Text: "gh auth token > .devcontainer/.gh-token", HostSecret: "gh auth token into .devcontainer/.gh-token", Loc: l(ins, 25)},
				{Phase: "postCreate", Text: "curl -fsSL https://claude.ai/install.sh | bash", Loc: l(ins, 26)},
				{Phase: "postStart", Text: "git config --global credential.helper store", Loc: l(ins, 28)},
				{Phase: "postStart", Text: "npm ci", Loc: l(ins, 29)},
			},
			Ports:     []model.Str{s(ins, "3000", 31), s(ins, "db:5432", 31)},
			User:      sp(ins, "root", 32),
			Workspace: &model.Mount{Type: "bind", Source: "${localWorkspaceFolder}", Target: "/workspaces/${localWorkspaceFolderBasename}", Persistent: true, WorkspaceRel: ".", Loc: l(ins, 2)},
		},
		wantCreds: []model.Credential{{SecretRef: *openai(), Where: "env", Context: "devcontainer containerEnv OPENAI_API_KEY", ReadableByAgent: true, Loc: l(ins, 21)}},
	}, {
		path: hard,
		want: model.Workload{
			ID: "devcontainer:" + hard, Source: "devcontainer", Name: "agent-sandbox-hardened", Loc: l(hard, 1),
			Image:        sp(hard, "fixtures/devcontainer/hardened/.devcontainer/Dockerfile", 5),
			NetworkMode:  sp(hard, "none", 7),
			Egress:       &model.Egress{Restricted: true, By: "runArgs --network=none", Loc: l(hard, 7)},
			CapDrop:      []model.Str{s(hard, "ALL", 8)},
			SecurityOpt:  []model.Str{s(hard, "no-new-privileges", 9)},
			AllowPrivEsc: b(hard, false, 9),
			Runtime:      sp(hard, "gvisor", 10),
			ReadOnlyRoot: b(hard, true, 11),
			Mounts: []model.Mount{
				{Type: "bind", Source: "${localWorkspaceFolder}", Target: "/workspace", Persistent: true, WorkspaceRel: ".", Loc: l(hard, 13)},
				{Type: "tmpfs", Target: "/tmp", Loc: l(hard, 15)},
			},
			Build:     &model.Build{Dockerfile: "fixtures/devcontainer/hardened/.devcontainer/Dockerfile", Context: "fixtures/devcontainer/hardened", Loc: l(hard, 5)},
			Workspace: &model.Mount{Type: "bind", Source: "${localWorkspaceFolder}", Target: "/workspace", Persistent: true, WorkspaceRel: ".", Loc: l(hard, 13)},
			Features:  []model.Str{s(hard, "ghcr.io/devcontainers/features/node", 17)},
			User:      sp(hard, "vscode", 20),
			Commands:  []model.Command{{Phase: "postCreate", Text: "npm ci --ignore-scripts", Loc: l(hard, 21)}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			data, err := os.ReadFile("../../" + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			doc := collect(t, tt.path, data)
			if diff := cmp.Diff([]model.Workload{tt.want}, doc.Workloads); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCreds, doc.Credentials); diff != "" {
				t.Errorf("credentials (-want +got):\n%s", diff)
			}
			checkConsistent(t, tt.path, data, doc)
		})
	}
}

// The Claude Code extension's settings in customizations.vscode.settings:
// bypass only with its gate, acceptEdits as auto; a misspelt key and a
// bypass without the gate set nothing.
func TestVSCodeClaudeExtension(t *testing.T) {
	for src, want := range map[string]string{
		`{"image": "x", "customizations": {"vscode": {"settings": {"claudeCode.initialPermissionMode": "bypassPermissions", "claudeCode.allowDangerouslySkipPermissions": true}}}}`:   "bypass bypassPermissions",
		`{"image": "x", "customizations": {"vscode": {"settings": {"claudeCode.initialPermissionMode": "bypassPermissions"}}}}`:                                                       "",
		`{"image": "x", "customizations": {"vscode": {"settings": {"claudeCode.initialPermissionMode": "acceptEdits"}}}}`:                                                             "auto acceptEdits",
		`{"image": "x", "customizations": {"vscode": {"settings": {"claude-code.initialPermissionMode": "bypassPermissions", "claude-code.allowDangerouslySkipPermissions": true}}}}`: "",
	} {
		var doc model.Document
		if err := New().Collect(context.Background(), ".devcontainer/devcontainer.json", []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, a := range doc.Agents {
			got = a.ApprovalMode.Value + " " + a.ApprovalRaw.Value
			if a.Tool != "claude-code" || !strings.Contains(a.Context, "Claude Code extension settings") {
				t.Errorf("agent %+v", a)
			}
		}
		if got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}

// TestFirewallFeature: a Feature that sets up a firewall restricts egress
// by code the scan does not read (unverified); --network=none still wins,
// and a Feature of another kind declares nothing.
func TestFirewallFeature(t *testing.T) {
	const fw = `"ghcr.io/w3cj/devcontainer-features/firewall:latest": {"githubIps": true}`
	for name, tt := range map[string]struct {
		src  string
		want *model.Egress
	}{
		"feature": {`{"image": "debian:12", "features": {` + fw + `}}`, &model.Egress{
			Restricted: true, By: "feature ghcr.io/w3cj/devcontainer-features/firewall", Loc: model.Loc{File: ".devcontainer/devcontainer.json", Line: 1},
			Unverified: []string{"the Feature ghcr.io/w3cj/devcontainer-features/firewall sets up a firewall in the container; its rules and allowed hosts are not read"},
		}},
		"network none wins": {`{"image": "debian:12", "runArgs": ["--network=none"], "features": {` + fw + `}}`, nil},
		"other feature":     {`{"image": "debian:12", "features": {"ghcr.io/devcontainers/features/node:1": {}}}`, nil},
	} {
		doc := collect(t, ".devcontainer/devcontainer.json", []byte(tt.src))
		got := doc.Workloads[0].Egress
		if name == "network none wins" {
			if got == nil || got.By != "runArgs --network=none" {
				t.Errorf("%s: egress = %+v, want runArgs --network=none", name, got)
			}
			continue
		}
		if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: egress (-want +got):\n%s", name, d)
		}
	}
}
