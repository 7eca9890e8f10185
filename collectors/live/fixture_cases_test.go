package live

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

type fixtureCase struct {
	name                      string
	task                      time.Time // zero: guessed from the process tree
	kind, runtime, confidence string
	allowUnavailable          map[string]bool
	check                     func(t *testing.T, l *model.Live, creds []model.Credential)
}

func fixtureCases() []fixtureCase {
	return []fixtureCase{
		{name: "docker-default", kind: "container", runtime: "docker", confidence: "high",
			check: func(t *testing.T, l *model.Live, creds []model.Credential) {
				p := l.Privileges
				if len(p.CapsBeyondDefault) != 0 || p.Seccomp != "filter" || p.Privileged || !p.LSM.Confined || p.HostPID || p.HostNet {
					t.Errorf("default container privileges: %+v", p)
				}
				if len(l.Sockets) != 0 || len(l.Mounts) != 0 {
					t.Errorf("sockets %+v mounts %+v, want none", l.Sockets, l.Mounts)
				}
				if len(creds) != 1 || creds[0].Where != "live-env" || creds[0].Context != "environment variable ANTHROPIC_API_KEY" {
					t.Errorf("credentials = %+v", creds)
				}
				if l.Reuse.OldFiles != 0 || l.Reuse.TaskSource != "process-tree" || l.Reuse.EnvAgeAtTaskSeconds != 300 {
					t.Errorf("reuse = %+v", l.Reuse)
				}
			}},
		{name: "docker-privileged", kind: "container", runtime: "docker", confidence: "high",
			check: func(t *testing.T, l *model.Live, _ []model.Credential) {
				p := l.Privileges
				if !p.Privileged || !p.AllCaps || p.Seccomp != "disabled" || !p.HostPID || !p.HostNet {
					t.Errorf("privileged container: %+v", p)
				}
				if len(l.Sockets) != 1 || l.Sockets[0].Kind != "docker" || l.Sockets[0].Found != "mount" || l.Sockets[0].Error != "not a socket" {
					t.Errorf("sockets = %+v", l.Sockets)
				}
				wantMount(t, l.Mounts, "/var/run/docker.sock", "runtime-socket")
				wantMount(t, l.Mounts, "/root/.ssh", "credentials-dir")
				wantMount(t, l.Mounts, "/sys", "sys-writable")
				wantMount(t, l.Mounts, "/proc", "proc-sys-writable")
				if c := findCred(l, "/root/.ssh/id_ed25519"); c == nil || c.Kind != "ssh-private-key" || c.Note != "no passphrase" || !c.CanPush {
					t.Errorf("ssh key = %+v", c)
				}
			}},
		{name: "gvisor", kind: "gvisor", runtime: "runsc", confidence: "high",
			check: func(t *testing.T, l *model.Live, _ []model.Credential) {
				// /.dockerenv alone is one medium signal: not enough for a container layer.
				if !slices.Equal(l.Isolation.Layers, []string{"gvisor"}) {
					t.Errorf("layers = %q", l.Isolation.Layers)
				}
			}},
		{name: "firecracker", kind: "firecracker", runtime: "firecracker", confidence: "high",
			check: func(t *testing.T, l *model.Live, _ []model.Credential) {
				n := l.Network
				want := []model.Proxy{{Var: "HTTPS_PROXY", Host: "10.0.0.1:3128"}, {Var: "HTTP_PROXY", Host: "10.0.0.1:3128"}}
				if !slices.Equal(n.Proxies, want) || !slices.Equal(n.NoProxy, []string{"localhost", "127.0.0.1", ".internal"}) {
					t.Errorf("proxies = %+v no_proxy = %q", n.Proxies, n.NoProxy)
				}
				if len(n.DefaultRoutes) != 1 || n.DefaultRoutes[0].Gateway != "172.16.0.1" {
					t.Errorf("routes = %+v", n.DefaultRoutes)
				}
				if l.Privileges.LSM.Name != "none" {
					t.Errorf("lsm = %+v", l.Privileges.LSM)
				}
			}},
		{name: "kata", kind: "kata", runtime: "kata", confidence: "high",
			check: func(t *testing.T, l *model.Live, _ []model.Credential) {
				for _, s := range l.Isolation.Signals {
					if s == "/proc/cmdline has Firecracker's boot arguments (reboot=k panic=1 …)" {
						t.Errorf("Kata's boot arguments taken for Firecracker")
					}
				}
			}},
		{name: "github-runner", task: fixtureNow.Add(-time.Minute), kind: "vm", runtime: "hyper-v", confidence: "high",
			check: func(t *testing.T, l *model.Live, creds []model.Credential) {
				c := findCred(l, "git-credentials-3b1f2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.config [http.https://github.com/.extraheader]")
				if c == nil || c.Source != "git-config" || !c.CanPush || c.Kind != "github-app-installation-token" {
					t.Fatalf("checkout token = %+v in %q", c, credNames(l))
				}
				var ctx string
				for _, mc := range creds {
					if mc.Fingerprint == c.Fingerprint {
						ctx = mc.Context
					}
				}
				if want := "(included from /home/runner/work/app/app/.git/config)"; !strings.Contains(ctx, want) {
					t.Errorf("checkout token context %q, want it to say %q", ctx, want)
				}
				if oidc := findCred(l, "ACTIONS_ID_TOKEN_REQUEST_TOKEN"); oidc == nil || oidc.ExpiresAt != "2026-11-20T17:50:00Z" || oidc.Issuer == "" {
					t.Errorf("OIDC request token = %+v", oidc)
				}
				if len(l.Sockets) != 1 || l.Sockets[0].Path != "/var/run/docker.sock" || l.Sockets[0].Found != "path" {
					t.Errorf("sockets = %+v", l.Sockets)
				}
				if l.Reuse.TaskSource != "option" || l.Reuse.EnvAgeAtTaskSeconds != 240 {
					t.Errorf("reuse = %+v", l.Reuse)
				}
			}},
		{name: "k8s-pod", kind: "container", runtime: "containerd", confidence: "high",
			check: func(t *testing.T, l *model.Live, _ []model.Credential) {
				c := findCred(l, "/var/run/secrets/kubernetes.io/serviceaccount/token")
				if c == nil || c.Kind != "kubernetes-service-account-token" || c.ExpiresAt != "2027-11-20T12:00:00Z" ||
					c.Lifetime != "long" || c.Subject != "system:serviceaccount:agents:coder" || c.Expired ||
					!slices.Equal(c.Audience, []string{"https://kubernetes.default.svc.cluster.local"}) || c.Note == "" {
					t.Errorf("service-account token = %+v in %q", c, credNames(l))
				}
				if irsa := findCred(l, "eks.amazonaws.com"); irsa == nil || irsa.Lifetime != "short" {
					t.Errorf("IRSA token = %+v", irsa)
				}
				if l.Privileges.Seccomp != "disabled" || l.Privileges.LSM.Name != "selinux" || !l.Privileges.LSM.Confined {
					t.Errorf("privileges = %+v", l.Privileges)
				}
				if len(l.Reuse.PersistentMounts) != 1 || l.Reuse.PersistentMounts[0].Target != "/home/agent/.cache" {
					t.Errorf("persistent mounts = %+v", l.Reuse.PersistentMounts)
				}
				if !slices.Equal(l.Isolation.Layers, []string{"vm", "container"}) {
					t.Errorf("layers = %q", l.Isolation.Layers)
				}
			}},
		{name: "bare-host", task: fixtureNow.Add(-30 * time.Minute), kind: "host", runtime: "", confidence: "medium",
			check: func(t *testing.T, l *model.Live, creds []model.Credential) {
				if len(creds) < 15 {
					t.Errorf("%d credentials, want ≥ 15: %q", len(creds), credNames(l))
				}
				if a := findCred(l, "SSH_AUTH_SOCK"); a == nil || a.Kind != "ssh-agent" || !a.CanPush {
					t.Errorf("ssh agent = %+v", a)
				}
				if k := findCred(l, ".ssh/id_ed25519"); k == nil || k.Note != "passphrase-protected" {
					t.Errorf("ssh key = %+v", k)
				}
				if findCred(l, "NODE_AUTH_TOKEN") != nil {
					t.Errorf("a ${VAR} reference taken for a credential")
				}
				r := l.Reuse
				if len(r.History) < 3 || !r.History[0].BeforeTask || r.OldFiles == 0 || len(r.PersistentMounts) != 1 {
					t.Errorf("reuse = %+v", r)
				}
			}},
	}
}
