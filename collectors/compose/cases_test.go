package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

const f = "compose.yaml"

func l(n int) model.Loc             { return model.Loc{File: f, Line: n} }
func s(v string, n int) model.Str   { return model.Str{Value: v, Loc: l(n)} }
func sp(v string, n int) *model.Str { x := s(v, n); return &x }
func bp(v bool, n int) *model.Bool  { return &model.Bool{Value: v, Loc: l(n)} }
func wl(name string, n int) model.Workload {
	return model.Workload{ID: "compose:" + f + ":" + name, Source: "compose", Name: name, Loc: l(n), Networks: []string{"default"}}
}

func TestCollectCases(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []model.Workload
	}{{
		name: "merge keys: explicit wins, first merged wins, !reset drops, x- skipped",
		src: `x-base: &base
  user: base
  privileged: true
  read_only: true
x-more: &more
  user: more
  runtime: kata-qemu
services:
  x-not-a-service: {image: nope}
  app:
    <<: [*base, *more]
    privileged: false
    read_only: !reset null
    x-note: ignored
`,
		want: []model.Workload{func() model.Workload {
			w := wl("app", 10)
			w.User = sp("base", 2)
			w.Privileged = bp(false, 12)
			w.Runtime = sp("kata", 7)
			return w
		}()},
	}, {
		name: "egress: none, internal default, all internal, one external, shared namespace",
		src: `services:
  none: {network_mode: none}
  implicit: {image: a}
  both:
    networks:
      back: {}
      default:
  mixed: {networks: [back, front]}
  shared: {network_mode: "service:none"}
networks:
  default: {internal: true}
  back:
    internal: true
  front: {}
`,
		want: []model.Workload{
			func() model.Workload {
				w := wl("none", 2)
				w.Networks = nil // network_mode replaces networks
				w.NetworkMode = sp("none", 2)
				w.Egress = &model.Egress{Restricted: true, By: "network_mode: none", Loc: l(2)}
				return w
			}(),
			func() model.Workload {
				w := wl("implicit", 3)
				w.Image = sp("a", 3)
				w.Egress = &model.Egress{Restricted: true, By: "internal network: default", Loc: l(11)}
				return w
			}(),
			func() model.Workload {
				w := wl("both", 4)
				w.Networks = []string{"back", "default"}
				w.Egress = &model.Egress{Restricted: true, By: "internal network: back, default", Loc: l(5)}
				return w
			}(),
			func() model.Workload { w := wl("mixed", 8); w.Networks = []string{"back", "front"}; return w }(),
			func() model.Workload {
				w := wl("shared", 9)
				w.Networks = nil
				w.NetworkMode = sp("service:none", 9)
				return w
			}(),
		},
	}, {
		name: "volumes, tmpfs and ports in every syntax",
		src: `services:
  v:
    volumes:
      - /data
      - 'C:\Users\me\.ssh:/root/.ssh:ro,z'
      - ${SSH_DIR:-/home/me/.ssh}:/root/.ssh:ro
      - cache:/cache:nocopy
      - type: tmpfs
        target: /scratch
      - type: npipe
        source: \\.\pipe\docker_engine
        target: \\.\pipe\docker_engine
      - {type: bind, source: ./src, target: /src, read_only: true}
      - {source: /etc, target: /host-etc}
    tmpfs: /run
    ports:
      - 3000
      - "127.0.0.1:8080:80/tcp"
      - {target: 80, published: "8081", host_ip: 0.0.0.0, protocol: udp}
      - {target: 9000}
`,
		want: []model.Workload{func() model.Workload {
			w := wl("v", 2)
			w.Mounts = []model.Mount{
				{Type: "volume", Target: "/data", Persistent: true, Loc: l(4)},
				{Type: "bind", Source: `C:\Users\me\.ssh`, Target: "/root/.ssh", ReadOnly: true, Persistent: true, Loc: l(5)},
				{Type: "bind", Source: "/home/me/.ssh", Target: "/root/.ssh", ReadOnly: true, Persistent: true, Loc: l(6)},
				{Type: "volume", Source: "cache", Target: "/cache", Persistent: true, Loc: l(7)},
				{Type: "tmpfs", Target: "/scratch", Loc: l(8)},
				{Type: "bind", Source: `\\.\pipe\docker_engine`, Target: `\\.\pipe\docker_engine`, Persistent: true, Loc: l(10)},
				{Type: "bind", Source: "./src", Target: "/src", ReadOnly: true, Persistent: true, WorkspaceRel: "src", Loc: l(13)},
				{Type: "bind", Source: "/etc", Target: "/host-etc", Persistent: true, Loc: l(14)},
				{Type: "tmpfs", Target: "/run", Loc: l(15)},
			}
			w.Ports = []model.Str{s("3000", 17), s("127.0.0.1:8080:80/tcp", 18), s("0.0.0.0:8081:80/udp", 19), s("9000", 20)}
			return w
		}()},
	}, {
		name: "environment: list and map, forwarding, escapes, defaults holding secrets",
		src: `services:
  e:
    environment:
      - PLAIN=1
      - EMPTY=
      - GH_TOKEN=${GITHUB_TOKEN}
      - DB_URL=postgres://app:$DB_PASSWORD@db/app
      - PRICE=$$5
      - FALLBACK=${TOKEN:-` + fakePAT + `}
      - =nameless
  m:
    env_file: [{path: ./a.env, required: false}, b.env]
    environment:
      PASSWORD:
      PORT: 8080
      SESSION_SECRET: "kq8Zt2Vx9Lm4Rb7Nw3Hp"
    cap_add: [CAP_SYS_PTRACE, " net_raw "]
    security_opt: ["seccomp=unconfined", "no-new-privileges"]
  n: {env_file: single.env}
`,
		want: []model.Workload{func() model.Workload {
			w := wl("e", 2)
			w.Env = []model.EnvVar{
				{Name: "PLAIN", Loc: l(4)},
				{Name: "EMPTY", Loc: l(5)},
				{Name: "GH_TOKEN", SensitiveName: true, FromHost: "GITHUB_TOKEN", HostSensitive: true, Loc: l(6)},
				{Name: "DB_URL", FromHost: "DB_PASSWORD", HostSensitive: true, Loc: l(7)},
				{Name: "PRICE", Loc: l(8)},
				{Name: "FALLBACK", FromHost: "TOKEN", HostSensitive: true, Secret: pat(), Loc: l(9)},
			}
			return w
		}(), func() model.Workload {
			w := wl("m", 11)
			w.Env = []model.EnvVar{
				{Name: "PASSWORD", SensitiveName: true, FromHost: "PASSWORD", HostSensitive: true, Loc: l(14)},
				{Name: "PORT", Loc: l(15)},
				{Name: "SESSION_SECRET", SensitiveName: true, Loc: l(16), Secret: secrets.DetectNamed("SESSION_SECRET", "kq8Zt2Vx9Lm4Rb7Nw3Hp")},
			}
			w.CapAdd = []model.Str{s("SYS_PTRACE", 17), s("NET_RAW", 17)}
			w.SecurityOpt = []model.Str{s("seccomp=unconfined", 18), s("no-new-privileges", 18)}
			w.Seccomp = sp("unconfined", 18)
			w.AllowPrivEsc = bp(false, 18)
			w.EnvFiles = []model.Str{s("./a.env", 12), s("b.env", 12)}
			return w
		}(), func() model.Workload {
			w := wl("n", 19)
			w.EnvFiles = []model.Str{s("single.env", 19)}
			return w
		}()},
	}, {
		name: "a host variable whose default is a setting holds no secret",
		src: `services:
  e:
    environment:
      ISO: ${X_TOKEN_ISOLATION:-false}
      GH: ${GH_TOKEN:-}
      DEF: ${API_TOKEN:-changeme}
`,
		want: []model.Workload{func() model.Workload {
			w := wl("e", 2)
			w.Env = []model.EnvVar{
				{Name: "ISO", FromHost: "X_TOKEN_ISOLATION", Loc: l(4)},
				{Name: "GH", FromHost: "GH_TOKEN", HostSensitive: true, Loc: l(5)},
				{Name: "DEF", FromHost: "API_TOKEN", HostSensitive: true, Loc: l(6)},
			}
			return w
		}()},
	}, {
		name: "runtimes and unresolved booleans",
		src: `services:
  a: {runtime: io.containerd.runsc.v1, privileged: "${PRIV}"}
  b: {runtime: sysbox-runc, pid: "container:x", ipc: shareable}
---
services:
  c: {runtime: gvisor}
`,
		want: []model.Workload{
			func() model.Workload { w := wl("a", 2); w.Runtime = sp("gvisor", 2); return w }(),
			func() model.Workload { w := wl("b", 3); w.Runtime = sp("sysbox-runc", 3); return w }(),
			func() model.Workload { w := wl("c", 6); w.Runtime = sp("gvisor", 6); return w }(),
		},
	}, {
		name: "not compose: kubernetes manifest, empty services, empty file",
		src:  "apiVersion: v1\nkind: Pod\nservices: {a: {}}\n---\nservices:\n---\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collect(t, f, []byte(tt.src))
			// The cases leave out image and build to test one key at a
			// time: TestOverlay judges what that makes of a service.
			if diff := cmp.Diff(tt.want, doc.Workloads, cmpopts.IgnoreFields(model.Workload{}, "Overlay")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			checkConsistent(t, f, []byte(tt.src), doc)
		})
	}
}

// TestOverlay: a service with no image, build or extends only adds to a
// service another compose file defines (an override file's fragment).
func TestOverlay(t *testing.T) {
	src := `services:
  agent:
    environment: [ANTHROPIC_API_KEY]
    privileged: true
  app: {image: node:22}
  built: {build: .}
  child: {extends: {file: base.yml, service: app}}
`
	doc := collect(t, f, []byte(src))
	got := map[string]bool{}
	for _, w := range doc.Workloads {
		got[w.Name] = w.Overlay
	}
	want := map[string]bool{"agent": true, "app": false, "built": false, "child": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("overlay (-want +got):\n%s", diff)
	}
}

// bomb is the classic billion-laughs document: 9 levels of 9 aliases.
func bomb() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString(n + ": &" + n + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n")
		prev = n
	}
	b.WriteString("services:\n  app:\n    cap_add: *i\n")
	return b.String()
}

func TestCredentialsOutsideEnvironment(t *testing.T) {
	src := `services:
  a:
    build:
      context: .
      args:
        NPM_TOKEN: ` + fakePAT + `
        PLAIN: "1"
  b:
    build: {args: ["GH_TOKEN=` + fakePAT + `", "REF=${GH_TOKEN}"]}
    command: ["sh", "-c", "git clone https://x:` + fakePAT + `@github.com/o/r"]
    entrypoint: run --token ` + fakePAT + `
`
	doc := collect(t, f, []byte(src))
	cred := func(svc, where, ctx string, line int) model.Credential {
		return model.Credential{SecretRef: *pat(), Where: where, Context: ctx, ReadableByAgent: true, Workload: "compose:" + f + ":" + svc, Loc: l(line)}
	}
	var want []model.Credential
	want = append(want, cred("a", "arg", "compose service a build arg NPM_TOKEN", 6), cred("b", "arg", "compose service b build arg GH_TOKEN", 9))
	for _, m := range secrets.Scan("git clone https://x:" + fakePAT + "@github.com/o/r") {
		want = append(want, model.Credential{SecretRef: m.SecretRef, Where: "arg", Context: "compose service b command", ReadableByAgent: true, Workload: "compose:" + f + ":b", Loc: l(10)})
	}
	want = append(want, cred("b", "arg", "compose service b entrypoint", 11))
	if diff := cmp.Diff(want, doc.Credentials); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, w := range doc.Workloads {
		if len(w.Env) != 0 {
			t.Errorf("build args or commands reached %s's env: %+v", w.Name, w.Env)
		}
	}
}

// mergeBomb nests merge keys instead of sequences: each level merges the
// previous one nine times.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("x-a: &a {k: v, privileged: true}\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString("x-" + n + ": &" + n + " {<<: [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]}\n")
		prev = n
	}
	b.WriteString("services:\n  app:\n    <<: *i\n")
	return b.String()
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
		services  []string // still collected despite the error
	}{
		{name: "bad yaml", src: "services:\n  app:\n    image: [a\n", line: 2, msg: "did not find expected"},
		{name: "binary junk", src: "\x00\x01\x02\xff\xfe\x00", msg: "control characters are not allowed"},
		{name: "alias bomb", src: bomb(), msg: "excessive aliasing"},
		{name: "merge bomb", src: mergeBomb(), msg: "excessive aliasing"},
		{name: "duplicate key", src: "services:\n  a: {}\n  a: {}\n", line: 3, msg: "already defined"},
		{name: "top level sequence", src: "- services\n", line: 1, msg: "top level is a sequence"},
		{name: "services is a list", src: "services:\n  - app\n", line: 2, msg: "services is a sequence"},
		{name: "non-map services, others kept", src: "services:\n  ok: {image: a}\n  bad: nginx\n  nul:\n  ok2: {image: b}\n",
			line: 3, msg: `service bad is a scalar, not a mapping (and 1 more)`, services: []string{"ok", "ok2"}},
		{name: "bad merge", src: "services:\n  a:\n    <<: 1\n", line: 3, msg: "map merge requires"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &model.Document{}
			start := time.Now()
			err := New().Collect(context.Background(), f, []byte(tt.src), doc)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *collectors.ParseError", err)
			}
			if (tt.line != 0 && pe.Line != tt.line) || !strings.Contains(pe.Error(), tt.msg) {
				t.Errorf("err = line %d %q, want line %d containing %q", pe.Line, pe.Error(), tt.line, tt.msg)
			}
			var got []string
			for _, w := range doc.Workloads {
				got = append(got, w.Name)
			}
			if diff := cmp.Diff(tt.services, got); diff != "" {
				t.Errorf("services (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInterpolatedDefaults: ${VAR} is the operator's input; the default of
// ${VAR:-default} and ${VAR-default} is a literal, judged like one.
func TestInterpolatedDefaults(t *testing.T) {
	src := `services:
  db:
    image: postgres:16
    ports: ["5432:5432"]
    environment:
      POSTGRES_USER: ${POSTGRES_USER:-postgres}
      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}
      REPLICA_PASSWORD: ${REPLICA_PASSWORD}
      ADMIN_PASSWORD: ${ADMIN_PASSWORD-changeme}
      SESSION_SECRET: ${SESSION_SECRET:-Vx8Qk2Lm9Rt4Wn7Zp3Hs6Jd1}
      GITHUB_TOKEN: ${GITHUB_TOKEN:-` + fakePAT + `}
      TOKEN_REFRESH_ENABLED: "true"
      MAX_TOKENS: "4096"
`
	doc := collect(t, f, []byte(src))
	type row struct {
		Name       string
		Kind, From string
		Sensitive  bool
		Weak       bool
	}
	var got []row
	for _, e := range doc.Workloads[0].Env {
		r := row{Name: e.Name, From: e.FromHost, Sensitive: e.SensitiveName, Weak: e.Weak}
		if e.Secret != nil {
			r.Kind = e.Secret.Kind
		}
		got = append(got, r)
	}
	want := []row{
		{Name: "POSTGRES_USER", From: "POSTGRES_USER"},
		{Name: "POSTGRES_PASSWORD", From: "POSTGRES_PASSWORD", Sensitive: true, Weak: true},
		{Name: "REPLICA_PASSWORD", From: "REPLICA_PASSWORD", Sensitive: true},
		{Name: "ADMIN_PASSWORD", From: "ADMIN_PASSWORD", Sensitive: true, Weak: true},
		{Name: "SESSION_SECRET", Kind: "generic-secret", From: "SESSION_SECRET", Sensitive: true},
		{Name: "GITHUB_TOKEN", Kind: "github-pat-classic", From: "GITHUB_TOKEN", Sensitive: true},
		{Name: "TOKEN_REFRESH_ENABLED"},
		{Name: "MAX_TOKENS"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A connection URL to a service of the compose network with a guessable
// password is a dev default (weak), not a leaked credential; a strong
// password stays a secret.
func TestDevConnectionURLs(t *testing.T) {
	src := `services:
  app:
    image: app
    environment:
      DATABASE_URL: postgres://arxii:arxii@db:5432/arxiidev
      CACHE_URL: redis://default:password@localhost:6379
      REPLICA_URL: postgres://app:Vx8Qk2Lm9Rt4Wn7Zp3Hs6Jd1@db:5432/app
      PROD_URL: postgres://app:app@prod.db.example.com:5432/app
`
	doc := collect(t, f, []byte(src))
	got := map[string]string{}
	for _, e := range doc.Workloads[0].Env {
		switch {
		case e.Secret != nil:
			got[e.Name] = "secret"
		case e.Weak:
			got[e.Name] = "weak@" + e.URLHost
		default:
			got[e.Name] = ""
		}
	}
	// password and app:app are placeholders to the detector already.
	want := map[string]string{"DATABASE_URL": "weak@db", "CACHE_URL": "", "REPLICA_URL": "secret", "PROD_URL": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(doc.Credentials) != 1 {
		t.Errorf("credentials = %+v, want the strong password only", doc.Credentials)
	}
}

// TestProxyEnvWithFirewallCapability: a service that sends HTTP(S) to a
// proxy service of the file through the environment and keeps NET_ADMIN
// (the shape of a sandbox whose image programs its own firewall) has an
// egress control the files cannot verify; without NET_ADMIN, or with a
// proxy that is no service of the file, the variable restricts nothing.
func TestProxyEnvWithFirewallCapability(t *testing.T) {
	egress := func(src string) *model.Egress {
		t.Helper()
		var doc model.Document
		if err := New().Collect(context.Background(), f, []byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		for _, w := range doc.Workloads {
			if w.Name == "agent" {
				return w.Egress
			}
		}
		t.Fatal("no agent service")
		return nil
	}
	const proxy = "services:\n  proxy: {image: mitm}\n  agent:\n    image: a\n    environment:\n      - HTTPS_PROXY=http://proxy:8080\n"
	e := egress(proxy + "    cap_add: [NET_ADMIN]\n")
	if e == nil || e.Restricted || e.By != "HTTP(S)_PROXY to compose service proxy" || len(e.Unverified) != 1 || e.Line != 6 {
		t.Errorf("proxy and NET_ADMIN: egress = %+v", e)
	}
	if e := egress(proxy); e != nil {
		t.Errorf("proxy without NET_ADMIN: egress = %+v, want none", e)
	}
	if e := egress(strings.Replace(proxy, "proxy:8080", "corp-proxy.example:8080", 1) + "    cap_add: [NET_ADMIN]\n"); e != nil {
		t.Errorf("a proxy outside the file: egress = %+v, want none", e)
	}
}

// TestMountSourceDefaults: a ${VAR:-default} source mounts its default
// unless the operator sets VAR, so the default is what is judged (a host
// docker socket behind ${DOCKER_SOCK:-/var/run/docker.sock} went
// unreported); a bare ${VAR} stays as written.
func TestMountSourceDefaults(t *testing.T) {
	src := "services:\n  agent:\n    image: a\n    volumes:\n      - ${DOCKER_SOCK:-/var/run/docker.sock}:/var/run/docker.sock\n" +
		"      - ${BOX_HOME-~/.box/home}:/home/box\n      - ${WORK}:/work\n      - ${SSH_AUTH_SOCK:-/dev/null}:/ssh-agent:ro\n      - type: bind\n        source: ${SSH_DIR:-~/.ssh}\n        target: /root/.ssh\n"
	var doc model.Document
	if err := New().Collect(context.Background(), f, []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range doc.Workloads[0].Mounts {
		got = append(got, m.Type+" "+m.Source)
	}
	want := []string{"bind /var/run/docker.sock", "bind ~/.box/home", "bind ${WORK}", "bind ${SSH_AUTH_SOCK:-/dev/null}", "bind ~/.ssh"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
}

// Devices are kept by their path in the container, in every syntax: a
// host part given by a variable with a default, a host path alone, a
// different container path with permissions, the long syntax.
func TestDevices(t *testing.T) {
	src := "services:\n  runner:\n    image: a\n    devices:\n      - ${KVM_DEVICE_PATH:-/dev/kvm}:/dev/kvm\n" +
		"      - /dev/fuse\n      - /dev/sda:/dev/xvda:rwm\n      - source: /dev/net/tun\n        target: /dev/net/tun\n      - ${GPU:-/dev/dri}\n"
	var doc model.Document
	if err := New().Collect(context.Background(), f, []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range doc.Workloads[0].Devices {
		got = append(got, fmt.Sprintf("%s@%d", d.Value, d.Line))
	}
	want := []string{"/dev/kvm@5", "/dev/fuse@6", "/dev/xvda@7", "/dev/net/tun@8", "/dev/dri@10"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("devices (-want +got):\n%s", diff)
	}
}

func TestProfiles(t *testing.T) {
	src := "services:\n  image:\n    build: .\n    profiles: [build]\n  app:\n    image: a\n    profiles:\n      - dev\n      - ''\n  plain:\n    image: b\n"
	var doc model.Document
	if err := New().Collect(context.Background(), f, []byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, w := range doc.Workloads {
		got[w.Name] = nil
		for _, p := range w.Profiles {
			got[w.Name] = append(got[w.Name], fmt.Sprintf("%s@%d", p.Value, p.Line))
		}
	}
	want := map[string][]string{"image": {"build@4"}, "app": {"dev@8", "@9"}, "plain": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
}
