package compose

import (
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// checkConsistent asserts what must hold for any collected compose file:
// every fact points into the file, ids follow the documented form, and
// every secret found in an environment is also a credential.
func checkConsistent(t *testing.T, path string, data []byte, doc *model.Document) {
	t.Helper()
	lines := fuzzcheck.Lines(data)
	check := func(what string, l model.Loc) {
		t.Helper()
		if l.File != path || l.Line < 1 || l.Line > lines {
			t.Errorf("%s at %s:%d, want %s:1..%d", what, l.File, l.Line, path, lines)
		}
	}
	strs := func(what string, ss []model.Str) {
		t.Helper()
		for _, s := range ss {
			check(what, s.Loc)
		}
	}
	secretsFound := 0
	for _, w := range doc.Workloads {
		if w.Source != "compose" || w.ID != "compose:"+path+":"+w.Name {
			t.Errorf("workload %q has source %q id %q", w.Name, w.Source, w.ID)
		}
		check("workload "+w.Name, w.Loc)
		for _, p := range []*model.Str{w.Image, w.User, w.Runtime, w.Seccomp, w.NetworkMode, w.Restart} {
			if p != nil {
				check("field of "+w.Name, p.Loc)
			}
		}
		for _, p := range []*model.Bool{w.Privileged, w.ReadOnlyRoot, w.HostNetwork, w.HostPID, w.HostIPC, w.AllowPrivEsc} {
			if p != nil {
				check("flag of "+w.Name, p.Loc)
			}
		}
		strs("cap_add", w.CapAdd)
		strs("cap_drop", w.CapDrop)
		strs("security_opt", w.SecurityOpt)
		strs("env_file", w.EnvFiles)
		strs("ports", w.Ports)
		strs("devices", w.Devices)
		strs("profiles", w.Profiles)
		for _, m := range w.Mounts {
			check("mount "+m.Target, m.Loc)
			if m.Type == "tmpfs" && m.Persistent {
				t.Errorf("tmpfs mount %s marked persistent", m.Target)
			}
		}
		for _, e := range w.Env {
			check("env "+e.Name, e.Loc)
			if e.Secret != nil {
				secretsFound++
			}
		}
		if w.Egress != nil {
			check("egress", w.Egress.Loc)
			if !w.Egress.Restricted {
				t.Error("egress recorded but not restricted")
			}
		}
		for _, c := range w.CapAdd {
			if strings.HasPrefix(c.Value, "CAP_") || strings.ToUpper(c.Value) != c.Value {
				t.Errorf("capability %q not normalized", c.Value)
			}
		}
	}
	if secretsFound > len(doc.Credentials) {
		t.Errorf("%d secrets in env but %d credentials", secretsFound, len(doc.Credentials))
	}
	for _, c := range doc.Credentials {
		check("credential", c.Loc)
	}
}

// fuzzSeeds are compose files shaped like those projects commit: an agent
// beside its platform services with anchors and merge keys, long- and
// short-form volumes and ports, profiles, extends and interpolation.
var fuzzSeeds = []string{
	`name: agent-dev
x-common: &common
  restart: unless-stopped
  logging: {driver: json-file, options: {max-size: 10m}}
services:
  agent:
    <<: *common
    build: {context: ., dockerfile: .devcontainer/Dockerfile, args: [UID=1000]}
    user: "1000:1000"
    read_only: true
    cap_drop: [ALL]
    security_opt: ["no-new-privileges:true", "seccomp=./seccomp.json"]
    networks: [sandbox]
    environment:
      ANTHROPIC_API_KEY: ${ANTHROPIC_API_KEY:?set it}
      HTTP_PROXY: http://egress:3128
    volumes:
      - type: bind
        source: .
        target: /workspace
      - type: tmpfs
        target: /tmp
        tmpfs: {size: 64m}
      - home:/home/agent
    depends_on: {egress: {condition: service_healthy}}
  egress:
    image: ubuntu/squid:5.2-22.04_beta@sha256:` + strings.Repeat("c", 64) + `
    networks: [sandbox, default]
    ports: ["127.0.0.1:3128:3128"]
    healthcheck: {test: ["CMD", "squid", "-k", "check"], interval: 10s}
networks:
  sandbox: {internal: true}
volumes:
  home: {}
`,
	`version: "3.8"
services:
  runner:
    image: ghcr.io/example/agent-runner:latest
    privileged: true
    network_mode: host
    pid: host
    volumes:
      - /var/run/docker.sock:/var/run/docker.sock
      - ${HOME}/.ssh:/root/.ssh:ro
      - ~/.aws:/root/.aws
    env_file: [.env, ./secrets/agent.env]
    environment:
      - GITHUB_TOKEN=ghp_Nq3bXf0WkL8sPzR2vT5yC7hJ9mQ4dA1eG6uI
      - DEBUG
    profiles: [dangerous]
  db:
    extends: {file: common.yml, service: postgres}
    ports: ["5432:5432", {target: 80, published: "8080", host_ip: 0.0.0.0}]
`,
	"services:\n  a: &a {image: x, <<: {user: r}}\n  b: {<<: [*a, {privileged: true}], environment: [A=$B]}\n",
	"services:\n  a: 1\n  b:\n    volumes: ['C:\\x:/y:ro', '${H:-/r}:/z']\n---\nservices: {}\n",
	"a: &a [x, x]\nb: &b [*a, *a]\nservices: {c: {cap_add: *b}}\n",
	"services:\n  a:\n    image: x\n    cap_add: [sys_admin, CAP_NET_RAW]\n    devices: [/dev/kvm]\n    runtime: runsc\n    ipc: host\n    userns_mode: host\n",
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/compose/insecure/docker-compose.yml", "../../fixtures/compose/hardened/compose.yaml"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _ := fuzzcheck.Collect(t, New(), "compose.yaml", data, fuzzcheck.Options{})
		checkConsistent(t, "compose.yaml", data, doc)
	})
}
