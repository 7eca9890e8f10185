package docker

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

const fakePAT = "ghp_R7bKx2TqLmV9sWc4HnJd8PfZa3YeUo6GiQ1t" // fake, token-shaped

// agentInspect is what an engine says of a container started with
// --privileged-like options, the Docker socket and a token in its env.
const agentInspect = `{"Id":"abc123","Name":"/agent",
 "Config":{"Image":"ghcr.io/acme/agent:1.2","User":"","Env":["PATH=/bin","GITHUB_TOKEN=` + fakePAT + `","DB_PASSWORD=changeme","CODEX_UNSAFE_ALLOW_NO_SANDBOX=1"],
  "Cmd":["codex","exec","fix it"],"Entrypoint":null,"Labels":{"role":"agent"}},
 "HostConfig":{"Privileged":false,"CapAdd":["CAP_SYS_ADMIN"],"CapDrop":null,"SecurityOpt":["seccomp=unconfined","label=disable"],
  "PidMode":"host","IpcMode":"private","NetworkMode":"host","ReadonlyRootfs":false,"Runtime":"runc",
  "RestartPolicy":{"Name":"always"},"PortBindings":{"8080/tcp":[{"HostIp":"","HostPort":"8080"}]}},
 "Mounts":[{"Type":"bind","Source":"/var/run/docker.sock","Destination":"/var/run/docker.sock","RW":true},
  {"Type":"volume","Source":"/var/lib/docker/volumes/cache/_data","Destination":"/cache","RW":true}]}`

const hardenedInspect = `{"Id":"def456","Name":"/hardened",
 "Config":{"Image":"ghcr.io/acme/agent@sha256:0123","User":"65534","Env":["PATH=/bin"],"Labels":{}},
 "HostConfig":{"CapDrop":["ALL"],"SecurityOpt":["no-new-privileges"],"NetworkMode":"none","ReadonlyRootfs":true,"Runtime":"runsc","RestartPolicy":{"Name":"no"}},
 "Mounts":[]}`

// engine serves the two read-only calls over a real unix socket and
// records every request it gets.
func engine(t *testing.T) (host string, requests *[]string) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
		switch {
		case r.Method != http.MethodGet:
			http.Error(w, `{"message":"read-only test engine"}`, http.StatusMethodNotAllowed)
		case r.URL.Path == "/containers/json":
			var f map[string][]string
			json.Unmarshal([]byte(r.URL.Query().Get("filters")), &f)
			if len(f["label"]) > 0 && f["label"][0] != "role=agent" {
				w.Write([]byte(`[]`))
				return
			}
			if len(f["label"]) > 0 {
				w.Write([]byte(`[{"Id":"abc123","Names":["/web/agent","/agent"]}]`))
				return
			}
			w.Write([]byte(`[{"Id":"def456","Names":["/hardened"]},{"Id":"abc123","Names":["/web/agent","/agent"]}]`))
		case r.URL.Path == "/containers/abc123/json" || r.URL.Path == "/containers/agent/json":
			w.Write([]byte(agentInspect))
		case r.URL.Path == "/containers/def456/json":
			w.Write([]byte(hardenedInspect))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"No such container: gone"}`))
		}
	}))
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return "unix://" + sock, &got
}

func TestCollect(t *testing.T) {
	host, reqs := engine(t)
	ws, creds, err := Collect(context.Background(), Options{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range *reqs {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("a request that is not a read: %s", r)
		}
	}
	if len(ws) != 2 || ws[0].Name != "agent" || ws[1].Name != "hardened" {
		t.Fatalf("workloads = %+v", ws)
	}
	a, h := ws[0], ws[1]
	loc := model.Loc{File: "docker/agent", Line: 1}
	checks := []struct {
		what string
		got  any
		want any
	}{
		{"id", a.ID, "docker:agent"},
		{"user", a.User.Value, "root"},
		{"host pid", a.HostPID.Value, true},
		{"host network", a.HostNetwork.Value, true},
		{"caps", a.CapAdd, []model.Str{{Value: "SYS_ADMIN", Loc: loc}}},
		{"seccomp", a.Seccomp.Value, "unconfined"},
		{"runtime", a.Runtime.Value, "runc"},
		{"restart", a.Restart.Value, "always"},
		{"ports", a.Ports, []model.Str{{Value: "8080:8080/tcp", Loc: loc}}},
		{"mounts", a.Mounts, []model.Mount{
			{Type: "bind", Source: "/var/run/docker.sock", Target: "/var/run/docker.sock", Persistent: true, Loc: loc},
			{Type: "volume", Source: "/var/lib/docker/volumes/cache/_data", Target: "/cache", Persistent: true, Loc: loc},
		}},
		{"command", a.Commands[0].Text, "codex exec fix it"},
		{"hardened runtime", h.Runtime.Value, "gvisor"},
		{"hardened user", h.User.Value, "65534"},
		{"hardened egress", h.Egress != nil && h.Egress.Restricted, true},
		{"hardened privesc", h.AllowPrivEsc.Value, false},
		{"hardened restart", h.Restart, (*model.Str)(nil)},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.what, diff)
		}
	}
	env := map[string]model.EnvVar{}
	for _, e := range a.Env {
		env[e.Name] = e
	}
	if env["GITHUB_TOKEN"].Secret == nil || !env["DB_PASSWORD"].Weak || env["CODEX_UNSAFE_ALLOW_NO_SANDBOX"].Switch != "codex-no-sandbox" {
		t.Errorf("env not classified: %+v", a.Env)
	}
	if len(creds) != 1 || creds[0].Workload != "docker:agent" || creds[0].Where != "env" {
		t.Errorf("credentials = %+v", creds)
	}
	out, _ := json.Marshal([]any{ws, creds})
	if strings.Contains(string(out), fakePAT) || strings.Contains(string(out), "changeme") {
		t.Error("an environment value reached the model")
	}
}

func TestCollectSelect(t *testing.T) {
	host, _ := engine(t)
	ws, _, err := Collect(context.Background(), Options{Host: host, Labels: []string{"role=agent"}})
	if err != nil || len(ws) != 1 || ws[0].Name != "agent" {
		t.Errorf("by label: %v %+v", err, ws)
	}
	ws, _, err = Collect(context.Background(), Options{Host: host, Labels: []string{"role=db"}})
	if err != nil || len(ws) != 0 {
		t.Errorf("no match: %v %+v", err, ws)
	}
	ws, _, err = Collect(context.Background(), Options{Host: host, Names: []string{"agent"}})
	if err != nil || len(ws) != 1 {
		t.Errorf("by name: %v %+v", err, ws)
	}
	_, _, err = Collect(context.Background(), Options{Host: host, Names: []string{"gone"}})
	if !errors.Is(err, ErrEngine) || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "No such container") {
		t.Errorf("missing container: %v", err)
	}
}

// TestList: the engine filters by label (the request says which), each
// container is named by its own name, not a name a link gives it, and the
// list is sorted by name.
func TestList(t *testing.T) {
	host, reqs := engine(t)
	for _, tt := range []struct {
		labels []string
		want   []Container
	}{
		{nil, []Container{{ID: "abc123", Name: "agent"}, {ID: "def456", Name: "hardened"}}},
		{[]string{"role=agent"}, []Container{{ID: "abc123", Name: "agent"}}},
		{[]string{"role=db"}, []Container{}},
	} {
		*reqs = nil
		got, err := List(context.Background(), Options{Host: host, Labels: tt.labels})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("labels %v (-want +got):\n%s", tt.labels, diff)
		}
		if len(*reqs) != 1 || !strings.HasPrefix((*reqs)[0], "GET /containers/json?") {
			t.Errorf("labels %v: requests %q, want one GET of the list", tt.labels, *reqs)
		}
		if len(tt.labels) > 0 && !strings.Contains((*reqs)[0], url.QueryEscape(`{"label":["`+tt.labels[0]+`"]}`)) {
			t.Errorf("labels %v: the engine was not asked to filter: %s", tt.labels, (*reqs)[0])
		}
	}
	if _, err := List(context.Background(), Options{Host: "unix://" + filepath.Join(t.TempDir(), "none.sock")}); !errors.Is(err, ErrEngine) {
		t.Errorf("unreachable engine: %v, want ErrEngine", err)
	}
}

func TestEngineUnreachable(t *testing.T) {
	_, _, err := Collect(context.Background(), Options{Host: "unix://" + filepath.Join(t.TempDir(), "none.sock")})
	if !errors.Is(err, ErrEngine) {
		t.Errorf("err = %v, want ErrEngine", err)
	}
	_, _, err = Collect(context.Background(), Options{Host: "ssh://user@host"})
	if !errors.Is(err, ErrEngine) || !strings.Contains(err.Error(), "only unix:// and tcp://") {
		t.Errorf("err = %v", err)
	}
}

// FuzzWorkload: any inspect answer maps to one workload located at
// docker/<name>:1, with no environment value in the model.
func FuzzWorkload(f *testing.F) {
	f.Add([]byte(agentInspect))
	f.Add([]byte(hardenedInspect))
	f.Add([]byte(`{"Name":"","Config":{"Env":["=x","A"]},"HostConfig":{"PortBindings":{"1":[{}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in inspect
		if json.Unmarshal(data, &in) != nil {
			return
		}
		w, creds := workload(in)
		if w.Line != 1 || !strings.HasPrefix(w.File, "docker/") || w.ID != "docker:"+strings.TrimPrefix(w.File, "docker/") {
			t.Errorf("workload at %s:%d id %q", w.File, w.Line, w.ID)
		}
		out, _ := json.Marshal([]any{w.Env, creds})
		for _, kv := range in.Config.Env {
			n, v, ok := strings.Cut(kv, "=")
			if !ok || len(v) < 12 || strings.Contains(n, v) || strings.Contains(in.Name, v) || strings.Contains(in.ID, v) {
				continue // too short to tell, or the name itself
			}
			if strings.Contains(string(out), v) {
				t.Errorf("environment value %q in the model", v)
			}
		}
	})
}
