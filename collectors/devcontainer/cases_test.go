package devcontainer

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const f = ".devcontainer/devcontainer.json"

func l(n int) model.Loc             { return model.Loc{File: f, Line: n} }
func s(v string, n int) model.Str   { return model.Str{Value: v, Loc: l(n)} }
func sp(v string, n int) *model.Str { x := s(v, n); return &x }
func bp(v bool, n int) *model.Bool  { return &model.Bool{Value: v, Loc: l(n)} }
func wl(n int) model.Workload {
	return model.Workload{ID: "devcontainer:" + f, Source: "devcontainer", Loc: l(n), Workspace: defaultWorkspace(l(n))}
}

// defaultWorkspace is the read-write bind of the local folder that the
// devcontainer CLI makes when workspaceMount is not set.
func defaultWorkspace(at model.Loc) *model.Mount {
	return &model.Mount{Type: "bind", Source: "${localWorkspaceFolder}", Target: "/workspaces/${localWorkspaceFolderBasename}", Persistent: true, WorkspaceRel: ".", Loc: at}
}

func TestCollectCases(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		want      model.Workload
		wantCreds []model.Credential
	}{{
		name: "runArgs in every spelling",
		src: `{
  "image": "ubuntu",
  "runArgs": [
    "--privileged",
    "--cap-add", "cap_sys_ptrace",
    "--net", "host",
    "--pid=host",
    "--ipc=host",
    "-v", "/var/run/docker.sock:/var/run/docker.sock",
    "--volume=${localEnv:HOME}/.config/gh:/home/u/.config/gh:ro",
    "--mount", "type=volume,src=cache,dst=/cache",
    "--runtime", "kata-fc",
    "-e", "GH_TOKEN=` + fakePAT + `",
    "--env=FORWARD",
    "-eDEBUG=1",
    "--env-file", ".env",
    "-u", "1000",
    "-p 8080:80",
    "--device=/dev/kvm", "--device", "/dev/sdb:/dev/xvdb:r",
    "--cap-add"
  ]
}`,
		want: func() model.Workload {
			w := wl(1)
			w.Image = sp("ubuntu", 2)
			w.Privileged = bp(true, 4)
			w.CapAdd = []model.Str{s("SYS_PTRACE", 5)}
			w.NetworkMode = sp("host", 6)
			w.HostNetwork = bp(true, 6)
			w.HostPID = bp(true, 7)
			w.HostIPC = bp(true, 8)
			w.Mounts = []model.Mount{
				{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock", Persistent: true, Loc: l(9)},
				{Type: "bind", Source: "${localEnv:HOME}/.config/gh", Target: "/home/u/.config/gh", ReadOnly: true, Persistent: true, Loc: l(10)},
				{Type: "volume", Source: "cache", Target: "/cache", Persistent: true, Loc: l(11)},
			}
			w.Runtime = sp("kata", 12)
			w.Env = []model.EnvVar{
				{Name: "GH_TOKEN", SensitiveName: true, Secret: pat(), Loc: l(13)},
				{Name: "FORWARD", FromHost: "FORWARD", Loc: l(14)},
				{Name: "DEBUG", Loc: l(15)},
			}
			w.EnvFiles = []model.Str{s(".env", 16)}
			w.User = sp("1000", 17)
			w.Ports = []model.Str{s("8080:80", 18)}
			w.Devices = []model.Str{s("/dev/kvm", 19), s("/dev/xvdb", 19)}
			return w
		}(),
		wantCreds: []model.Credential{{SecretRef: *pat(), Where: "env", Context: "devcontainer runArgs GH_TOKEN", ReadableByAgent: true, Loc: l(13)}},
	}, {
		name: "features imply mounts and privilege; compose-based; env and command forms",
		src: `{
  "dockerComposeFile": ["../docker-compose.yml"],
  "service": "app",
  "privileged": false,
  "features": {
    "ghcr.io/devcontainers/features/docker-in-docker@sha256:0123": {"moby": true},
    "docker-from-docker": "latest",
    "./local-feature": {}
  },
  "capAdd": ["NET_ADMIN"],
  "securityOpt": ["seccomp:unconfined"],
  "containerUser": "root",
  "remoteEnv": {"PATH": "${containerEnv:PATH}:/x", "UNSET": null, "AUTH": "${localEnv:T:` + fakePAT + `}"},
  "onCreateCommand": ["bash", "-c", "echo hi"],
  "updateContentCommand": "",
  "postAttachCommand": "export TOKEN=` + fakePAT + `",
  "appPort": [8000, "9000:9000"],
  "workspaceMount": ""
}`,
		want: func() model.Workload {
			w := wl(1)
			w.Workspace = nil // the compose file mounts the workspace
			w.Compose = &model.ComposeRef{Files: []string{"docker-compose.yml"}, Service: "app", Loc: l(2)}
			w.Name = "app"
			w.Compose = &model.ComposeRef{Files: []string{"docker-compose.yml"}, Service: "app", Loc: l(2)}
			w.Privileged = bp(true, 6)
			w.Features = []model.Str{
				s("ghcr.io/devcontainers/features/docker-in-docker", 6),
				s("docker-from-docker", 7),
				s("./local-feature", 8),
			}
			w.Mounts = []model.Mount{
				{Type: "volume", Source: "dind-var-lib-docker-${devcontainerId}", Target: "/var/lib/docker", Persistent: true, Loc: l(6)},
				{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker-host.sock", Persistent: true, Loc: l(7)},
			}
			w.CapAdd = []model.Str{s("NET_ADMIN", 10)}
			w.SecurityOpt = []model.Str{s("seccomp:unconfined", 11)}
			w.Seccomp = sp("unconfined", 11)
			w.User = sp("root", 12)
			w.Env = []model.EnvVar{
				{Name: "PATH", Loc: l(13)},
				{Name: "AUTH", SensitiveName: true, FromHost: "T", Secret: pat(), Loc: l(13)},
			}
			w.Commands = []model.Command{
				{Phase: "onCreate", Text: "bash -c echo hi", Loc: l(14)},
				{Phase: "postAttach", Text: secrets.Redact("export TOKEN=" + fakePAT), Loc: l(16)},
			}
			w.Ports = []model.Str{s("8000", 17), s("9000:9000", 17)}
			return w
		}(),
		wantCreds: append([]model.Credential{
			{SecretRef: *pat(), Where: "env", Context: "devcontainer remoteEnv AUTH", ReadableByAgent: true, Loc: l(13)},
		}, scanCreds("export TOKEN="+fakePAT, "devcontainer postAttachCommand", 16)...),
	}, {
		name: "duplicate keys: the last wins; legacy dockerFile; remoteUser over containerUser",
		src: `{
  "image": "first",
  "image": "second",
  "dockerFile": "../Dockerfile",
  "containerUser": "root",
  "remoteUser": "dev",
  "forwardPorts": 3000
}`,
		want: func() model.Workload {
			w := wl(1)
			w.Image = sp("second", 3)
			w.User = sp("dev", 6)
			w.Ports = []model.Str{s("3000", 7)}
			return w
		}(),
	}, {
		name: "build.dockerfile resolved next to the file, build args checked for secrets",
		src:  "// leading comment\n\n{\"build\": {\"dockerfile\": \"../images/agent.Dockerfile\", \"args\": {\"TOKEN\": \"" + fakePAT + "\", \"V\": \"1\"}}, \"privileged\": true, \"runArgs\": [\"--privileged=false\"]}",
		want: func() model.Workload {
			w := wl(3)
			w.Image = sp("images/agent.Dockerfile", 3)
			w.Build = &model.Build{Dockerfile: "images/agent.Dockerfile", Context: ".devcontainer", Loc: l(3)}
			w.Privileged = bp(true, 3)
			return w
		}(),
		wantCreds: []model.Credential{{SecretRef: *pat(), Where: "arg", Context: "devcontainer build arg TOKEN", ReadableByAgent: true, Loc: l(3)}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collect(t, f, []byte(tt.src))
			if diff := cmp.Diff([]model.Workload{tt.want}, doc.Workloads); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCreds, doc.Credentials); diff != "" {
				t.Errorf("credentials (-want +got):\n%s", diff)
			}
			checkConsistent(t, f, []byte(tt.src), doc)
			if strings.Contains(docJSON(t, doc), fakePAT) {
				t.Error("a secret value reached the model")
			}
		})
	}
}

func scanCreds(text, context string, line int) []model.Credential {
	var out []model.Credential
	for _, m := range secrets.Scan(text) {
		out = append(out, model.Credential{SecretRef: m.SecretRef, Where: "arg", Context: context, ReadableByAgent: true, Loc: l(line)})
	}
	return out
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"bad json", "{\n  \"image\": \"a\",,\n}", 2, "invalid character ','"},
		{"binary junk", "\x00\x01\x02\xff\xfe", 1, "invalid character"},
		{"deep nesting", "{\"a\":\n" + strings.Repeat("[", 100000), 2, "nested deeper than"},
		{"top level array", "// c\n[1]", 2, "top level is an array"},
		{"top level string", "\"x\"", 1, `top level is a string, not an object`},
		{"unterminated comment", "{ /* never ends", 1, "parse devcontainer.json"},
		{"trailing garbage", "{}\n}", 2, "after top-level value"},
		{"empty", "", 1, "unexpected EOF"},
		{"yaml in a json file", "image: ubuntu\n", 1, "invalid literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{}
			start := time.Now()
			err := New().Collect(context.Background(), f, []byte(tt.src), doc)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *collectors.ParseError", err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Error(), tt.msg) {
				t.Errorf("err = line %d %q, want line %d containing %q", pe.Line, pe.Error(), tt.line, tt.msg)
			}
			if len(doc.Workloads) != 0 {
				t.Error("a malformed file added a workload")
			}
		})
	}
}

func TestInputNotModified(t *testing.T) {
	src := []byte("{\n  // comment\n  \"image\": \"a\", /* block */\n}")
	orig := string(src)
	collect(t, f, src)
	if string(src) != orig {
		t.Errorf("Collect changed its input to %q", src)
	}
}

func docJSON(t *testing.T, doc *model.Document) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCodespacesRepositories: the other repositories a codespace's token
// may act on, with what it may write there.
func TestCodespacesRepositories(t *testing.T) {
	src := `{
  "image": "mcr.microsoft.com/devcontainers/base:bookworm",
  "customizations": {
    "vscode": {"extensions": ["x.y"]},
    "codespaces": {
      "repositories": {
        "acme/assets": {"permissions": {"contents": "write", "pull_requests": "read", "issues": "write"}},
        "acme/*": {"permissions": "write-all"},
        "acme/docs": {"permissions": "read-all"}
      }
    }
  }
}`
	doc := collect(t, ".devcontainer/devcontainer.json", []byte(src))
	got := doc.Workloads[0].RepoGrants
	at := func(line int) model.Loc { return model.Loc{File: ".devcontainer/devcontainer.json", Line: line} }
	want := []model.RepoGrant{
		{Repo: "acme/assets", Write: []string{"contents", "issues"}, Loc: at(7)},
		{Repo: "acme/*", Write: []string{"*"}, Loc: at(8)},
		{Repo: "acme/docs", Write: []string{}, Loc: at(9)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("repo grants (-want +got):\n%s", diff)
	}
}

// TestEnvSwitch: an agent's documented switch set true is marked on the
// variable; set false, or to a reference, it is not.
func TestEnvSwitch(t *testing.T) {
	src := `{"image": "x", "containerEnv": {"CODEX_UNSAFE_ALLOW_NO_SANDBOX": "1", "SANDBOX_USE_HOST_NETWORK": "false"},
  "remoteEnv": {"CODEX_UNSAFE_ALLOW_NO_SANDBOX": "${localEnv:ALLOW}"}}`
	doc := collect(t, ".devcontainer/devcontainer.json", []byte(src))
	var got []string
	for _, e := range doc.Workloads[0].Env {
		got = append(got, e.Name+"="+e.Switch)
	}
	want := []string{"CODEX_UNSAFE_ALLOW_NO_SANDBOX=codex-no-sandbox", "SANDBOX_USE_HOST_NETWORK=", "CODEX_UNSAFE_ALLOW_NO_SANDBOX="}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("env switches (-want +got):\n%s", diff)
	}
}
