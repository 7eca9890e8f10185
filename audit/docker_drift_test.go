package audit

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
)

// TestDockerDrift: a compose file and the running containers scanned
// together: the container of the agent's service runs privileged with the
// Docker socket, which the file does not declare, and that is a finding at
// the container; the declared service and the container both appear as
// workloads, located in the file and at docker/<name>:1.
func TestDockerDrift(t *testing.T) {
	dir := t.TempDir()
	compose := "services:\n  agent:\n    image: ghcr.io/acme/agent:1.2\n    network_mode: none\n    cap_drop: [ALL]\n"
	if err := os.WriteFile(filepath.Join(dir, "docker-compose.yml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/containers/json":
			w.Write([]byte(`[{"Id":"c1"}]`))
		case "/containers/c1/json":
			w.Write([]byte(`{"Id":"c1","Name":"/proj-agent-1","Config":{"Image":"ghcr.io/acme/agent:1.2","User":"","Env":[],
			 "Labels":{"com.docker.compose.service":"agent","com.docker.compose.project":"proj"}},
			 "HostConfig":{"Privileged":true,"NetworkMode":"none","CapDrop":["ALL"],"Runtime":"runc"},
			 "Mounts":[{"Type":"bind","Source":"/var/run/docker.sock","Destination":"/var/run/docker.sock","RW":true}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Listener = l
	srv.Start()
	defer srv.Close()
	rep, err := Audit(context.Background(), Options{Path: dir, Docker: &docker.Options{Host: "unix://" + sock}, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var drift []string
	for _, f := range rep.Findings {
		if f.RuleID == "drift-running-container" {
			drift = append(drift, f.File+": "+f.Message)
		}
	}
	want := "docker/proj-agent-1: running container proj-agent-1 runs with privileged mode, mount /var/run/docker.sock at /var/run/docker.sock, which compose service agent (docker-compose.yml:2) does not declare"
	if len(drift) != 1 || drift[0] != want {
		t.Errorf("drift findings = %q, want [%q]", drift, want)
	}
	if got := strings.Join(rep.Targets, " "); !strings.Contains(got, "docker://proj-agent-1") {
		t.Errorf("targets %q lack the container", got)
	}
}
