package live

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// dockerAPI is a fake Docker Engine API that records every request, so
// the test can prove the probe only reads.
type dockerAPI struct {
	mu      sync.Mutex
	methods []string
}

func (d *dockerAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.methods = append(d.methods, r.Method+" "+r.URL.Path)
	d.mu.Unlock()
	w.Header().Set("Api-Version", "1.47")
	switch r.URL.Path {
	case "/_ping":
		_, _ = io.WriteString(w, "OK")
	case "/version":
		_, _ = io.WriteString(w, `{"Platform":{"Name":"Docker Engine - Community"},"Version":"27.3.1","ApiVersion":"1.47"}`)
	default:
		http.NotFound(w, r)
	}
}

// serveUnix starts an HTTP server on a unix socket at root+p.
func serveUnix(t *testing.T, root, p string, h http.Handler) {
	t.Helper()
	full := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", full)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
}

// deadSocket leaves a socket file nobody listens on, as a crashed daemon does.
func deadSocket(t *testing.T, root, p string) {
	t.Helper()
	full := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: full, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}

func socketByPath(l *model.Live, p string) *model.LiveSocket {
	for i := range l.Sockets {
		if l.Sockets[i].Path == p || l.Sockets[i].Endpoint == p {
			return &l.Sockets[i]
		}
	}
	return nil
}

func TestSocketsProbed(t *testing.T) {
	root := t.TempDir()
	api := &dockerAPI{}
	serveUnix(t, root, "/var/run/docker.sock", api)
	deadSocket(t, root, "/run/containerd/containerd.sock")
	tcpAPI := httptest.NewServer(&dockerAPI{})
	defer tcpAPI.Close()
	host := strings.TrimPrefix(tcpAPI.URL, "http://")

	for _, tc := range []struct {
		name  string
		probe bool
		skip  bool
	}{{"passive", false, false}, {"probe", true, false}, {"no socket probe", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			l, _, _ := Collect(context.Background(), Options{Root: root, Probe: tc.probe, SkipSocketProbe: tc.skip,
				ProbeTimeout: time.Second, Env: []string{"DOCKER_HOST=tcp://" + host}})
			d := socketByPath(l, "/var/run/docker.sock")
			if d == nil || d.Kind != "docker" || !d.IsSocket {
				t.Fatalf("docker socket = %+v in %+v", d, l.Sockets)
			}
			if tc.skip {
				if d.Probed || d.Reachable {
					t.Errorf("SkipSocketProbe but probed: %+v", d)
				}
				return
			}
			if !d.Probed || !d.Reachable || d.Evidence != "GET /_ping: 200 OK; GET /version: Docker Engine - Community 27.3.1 API 1.47" {
				t.Errorf("docker socket = %+v", d)
			}
			c := socketByPath(l, "/run/containerd/containerd.sock")
			if c == nil || !c.IsSocket || !c.Probed || c.Reachable || !strings.Contains(c.Error, "connection refused") {
				t.Errorf("dead containerd socket = %+v", c)
			}
			e := socketByPath(l, host)
			if e == nil || e.Found != "env DOCKER_HOST" || e.Probed != tc.probe || e.Reachable != tc.probe {
				t.Errorf("DOCKER_HOST endpoint = %+v (probe %v)", e, tc.probe)
			}
		})
	}
	api.mu.Lock()
	defer api.mu.Unlock()
	for _, m := range api.methods {
		if !strings.HasPrefix(m, "GET ") {
			t.Errorf("probe sent %s: a socket probe must only read", m)
		}
	}
	if len(api.methods) != 4 {
		t.Errorf("requests = %q, want GET /_ping and GET /version per probing run", api.methods)
	}
}

// TestSSHAgentForwarded serves the agent protocol's identity listing.
func TestSSHAgentForwarded(t *testing.T) {
	root := t.TempDir()
	sock := filepath.Join(root, "tmp/ssh-agent.sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			var req [5]byte
			if _, err := io.ReadFull(conn, req[:]); err == nil && req[4] == 11 {
				ans := make([]byte, 9)
				binary.BigEndian.PutUint32(ans[0:], 5)
				ans[4] = 12
				binary.BigEndian.PutUint32(ans[5:], 2)
				_, _ = conn.Write(ans)
			}
			conn.Close()
		}
	}()
	l, creds, _ := Collect(context.Background(), Options{Root: root, Env: []string{"SSH_AUTH_SOCK=/tmp/ssh-agent.sock"}})
	a := findCred(l, "SSH_AUTH_SOCK")
	if a == nil || a.Kind != "ssh-agent" || !a.CanPush || a.Note != "agent socket at /tmp/ssh-agent.sock; holds 2 key(s)" {
		t.Fatalf("agent = %+v", a)
	}
	if len(creds) != 1 || creds[0].Where != "live-env" {
		t.Errorf("credentials = %+v", creds)
	}
}
