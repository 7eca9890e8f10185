package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
)

// fakeEngine answers the Engine API's container list (filtered by label as
// the engine does) and inspect over a real unix socket, for the
// containers it holds (name → labels), which a test may change.
type fakeEngine struct {
	host string
	mu   sync.Mutex
	cs   map[string]map[string]string
}

func newFakeEngine(t *testing.T, cs map[string]map[string]string) *fakeEngine {
	t.Helper()
	e := &fakeEngine{cs: cs}
	sock := filepath.Join(t.TempDir(), "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(e.serve))
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	e.host = "unix://" + sock
	return e
}

func (e *fakeEngine) set(cs map[string]map[string]string) {
	e.mu.Lock()
	e.cs = cs
	e.mu.Unlock()
}

func (e *fakeEngine) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r.Method != http.MethodGet {
		http.Error(w, `{"message":"read-only test engine"}`, http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/containers/json" {
		var f map[string][]string
		if q := r.URL.Query().Get("filters"); q != "" && json.Unmarshal([]byte(q), &f) != nil {
			http.Error(w, `{"message":"bad filters"}`, http.StatusBadRequest)
			return
		}
		list := []map[string]any{}
		for name, labels := range e.cs {
			if matches(labels, f["label"]) {
				list = append(list, map[string]any{"Id": fakeID(name), "Names": []string{"/" + name}, "Labels": labels})
			}
		}
		json.NewEncoder(w).Encode(list)
		return
	}
	ref, ok := strings.CutPrefix(r.URL.Path, "/containers/")
	ref, ok2 := strings.CutSuffix(ref, "/json")
	for name, labels := range e.cs {
		if ok && ok2 && (ref == name || ref == fakeID(name)) {
			json.NewEncoder(w).Encode(map[string]any{"Id": fakeID(name), "Name": "/" + name,
				"Config": map[string]any{"Image": "example/agent:1", "Labels": labels}, "HostConfig": map[string]any{"NetworkMode": "none"}})
			return
		}
	}
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, `{"message":"No such container: %s"}`, ref)
}

func matches(have map[string]string, want []string) bool {
	for _, l := range want {
		k, v, withValue := strings.Cut(l, "=")
		if got, ok := have[k]; !ok || withValue && got != v {
			return false
		}
	}
	return true
}

// fakeID is a container's 64-digit id, made of its name.
func fakeID(name string) string {
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:])
}

func labelled(names ...string) map[string]map[string]string {
	cs := map[string]map[string]string{}
	for _, n := range names {
		cs[n] = map[string]string{"sandbox-audit.role": "agent"}
	}
	return cs
}

func ids(ts []Target) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

// TestResolveDocker: each docker_label entry becomes one target per
// container the engine lists with it, under the entry's policy; a
// container also listed on its own keeps that entry; an entry that
// matches none, or whose engine cannot be reached, stays a target that
// fails with why.
func TestResolveDocker(t *testing.T) {
	cs := labelled("agent-1", "agent-2", "agent-3")
	cs["db"] = map[string]string{"sandbox-audit.role": "platform"}
	cs["bare"] = map[string]string{}
	cs["agent-3"]["team"] = "infra"
	e := newFakeEngine(t, cs)
	root := t.TempDir()
	inv := &Inventory{Dir: root, Targets: []TargetDef{
		{DockerLabel: "sandbox-audit.role=agent", Policy: "agents.yaml"},
		{DockerLabel: "team"},                    // agent-3 again: listed once, under the first entry
		{DockerLabel: "sandbox-audit.role=none"}, // matches nothing
		{Name: "two", Docker: "agent-2"},         // on its own, by name
		{Docker: fakeID("agent-1")[:12]},         // on its own, by short id
	}}
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"docker://" + fakeID("agent-1")[:12], "docker_label:sandbox-audit.role=agent", "docker_label:sandbox-audit.role=none", "docker_label:team", "two"}, ids(ts)); diff != "" {
		t.Errorf("expanded (-want +got):\n%s", diff)
	}
	got := ResolveDocker(context.Background(), ts, e.host)
	want := []string{"docker://" + fakeID("agent-1")[:12], "docker://agent-3", "docker_label:sandbox-audit.role=none", "two"}
	if diff := cmp.Diff(want, ids(got)); diff != "" {
		t.Fatalf("resolved (-want +got):\n%s", diff)
	}
	for _, r := range got {
		switch r.ID {
		case "docker://agent-3":
			if r.Docker != "agent-3" || r.Policy != filepath.Join(root, "agents.yaml") || r.err != nil {
				t.Errorf("agent-3: %+v", r)
			}
		case "docker_label:sandbox-audit.role=none":
			if !errors.Is(r.err, ErrNoContainers) || !strings.Contains(r.err.Error(), "no running container has label sandbox-audit.role=none") {
				t.Errorf("an entry that matched none: %v", r.err)
			}
		default:
			if r.err != nil {
				t.Errorf("%s: %v", r.ID, r.err)
			}
		}
	}
	// The same inventory with no engine: each label entry fails alone,
	// the containers named on their own are still targets.
	down := ResolveDocker(context.Background(), ts, "unix://"+filepath.Join(t.TempDir(), "none.sock"))
	if diff := cmp.Diff(ids(ts), ids(down)); diff != "" {
		t.Errorf("no engine (-want +got):\n%s", diff)
	}
	for _, r := range down {
		if isLabel := r.dockerLabel != ""; isLabel != errors.Is(r.err, docker.ErrEngine) {
			t.Errorf("no engine: %s: %v", r.ID, r.err)
		}
	}
}

// TestScanDockerLabel: a fleet run over docker_label entries stores one
// result per labelled container, an entry that matched none as a failed
// target with why, and, with the engine unreachable, each entry as failed
// while the rest of the run goes on.
func TestScanDockerLabel(t *testing.T) {
	ctx := context.Background()
	e := newFakeEngine(t, labelled("agent-1", "agent-2"))
	root := t.TempDir()
	write(t, root, map[string]string{"repo/compose.yaml": privileged})
	inv := &Inventory{Dir: root, Targets: []TargetDef{{DockerLabel: "sandbox-audit.role=agent"}, {DockerLabel: "sandbox-audit.role=none"}, {Path: "repo"}}}
	ts, err := inv.Expand()
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStore(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := Scan(ctx, ts, st, Options{Concurrency: 2, DockerHost: e.host})
	if err != nil || sum.Stored != 4 || sum.Failed != 1 || !sum.RunComplete {
		t.Fatalf("scan: %+v, %v", sum, err)
	}
	res := stored(t, st, sum.Run)
	for _, id := range []string{"docker://agent-1", "docker://agent-2", "repo"} {
		if res[id] == nil || res[id].Error != "" || res[id].Verdict == "" {
			t.Errorf("%s: %+v", id, res[id])
		}
	}
	if r := res["docker_label:sandbox-audit.role=none"]; r == nil || !strings.Contains(r.Error, "no running container has label sandbox-audit.role=none") {
		t.Errorf("the entry that matched none: %+v", r)
	}
	sum, err = Scan(ctx, ts, st, Options{Concurrency: 2, DockerHost: "unix://" + filepath.Join(t.TempDir(), "none.sock")})
	if err != nil || sum.Stored != 3 || sum.Failed != 2 {
		t.Fatalf("engine unreachable: %+v, %v", sum, err)
	}
	res = stored(t, st, sum.Run)
	if res["repo"] == nil || res["repo"].Error != "" {
		t.Errorf("the run did not go on: %+v", res["repo"])
	}
	for _, id := range []string{"docker_label:sandbox-audit.role=agent", "docker_label:sandbox-audit.role=none"} {
		if r := res[id]; r == nil || !strings.Contains(r.Error, "docker engine") {
			t.Errorf("%s with the engine unreachable: %+v", id, r)
		}
	}
}

// TestShardsAdoptTheRunsContainers: a container started, and one stopped,
// between two shards' listings does not stop the later shard: it audits
// the run's list (the first shard's), a container of that list no longer
// running is stored with why, and the run completes.
func TestShardsAdoptTheRunsContainers(t *testing.T) {
	eachStore(t, func(t *testing.T, url string) {
		ctx := context.Background()
		names := []string{}
		for i := range 8 {
			names = append(names, fmt.Sprintf("agent-%d", i))
		}
		e := newFakeEngine(t, labelled(names...))
		ts, err := (&Inventory{Targets: []TargetDef{{DockerLabel: "sandbox-audit.role=agent"}}}).Expand()
		if err != nil {
			t.Fatal(err)
		}
		st, err := OpenStore(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		opt := func(shard int) Options {
			return Options{Concurrency: 2, DockerHost: e.host, Run: RunSpec{Name: "nightly", Shards: 2}, Shard: shard}
		}
		first, err := Scan(ctx, ts, st, opt(1))
		if err != nil || first.RunComplete {
			t.Fatalf("shard 1: %+v, %v", first, err)
		}
		// Before shard 2 lists: one container of shard 2's part stops,
		// another starts.
		var gone string
		for _, n := range names {
			if InShard("docker://"+n, 2, 2) {
				gone = n
				break
			}
		}
		if gone == "" {
			t.Fatal("no container in shard 2: pick other names")
		}
		now := labelled(append(names, "agent-new")...)
		delete(now, gone)
		e.set(now)
		second, err := Scan(ctx, ts, st, opt(2))
		if err != nil || !second.RunComplete || second.Run != first.Run || second.Failed != 1 {
			t.Fatalf("shard 2: %+v, %v", second, err)
		}
		res := stored(t, st, first.Run)
		got := []string{}
		for id := range res {
			got = append(got, id)
		}
		sort.Strings(got)
		want := []string{}
		for _, n := range names {
			want = append(want, "docker://"+n)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("stored (-want +got: the run's list, not shard 2's):\n%s", diff)
		}
		if r := res["docker://"+gone]; r == nil || !strings.Contains(r.Error, "listed when this run started") {
			t.Errorf("the container that stopped: %+v", r)
		}
	})
}
