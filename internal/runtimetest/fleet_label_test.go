package runtimetest

import (
	"context"
	"debug/elf"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/fleet"
)

// TestFleetDockerLabel starts running containers on a private engine, some
// with the label an inventory's docker_label entry selects, and runs a
// fleet scan over that inventory: exactly the running labelled containers
// become targets (docker://NAME), each read from the engine as itself; a
// container without the label, with another value of it, or labelled but
// not running is not one; shards 1 to 3 of one run partition them; and an
// entry that matches no container is stored as a target that could not be
// audited, which fleet scan exits 2 on and fleet report names.
func TestFleetDockerLabel(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOrFail(t, "the real-runtime tests start dockerd: they need root")
	}
	// A container that keeps running needs a program that waits: Debian's
	// static busybox, alone in an image made without a registry.
	const busybox = "/usr/bin/busybox"
	if f, err := elf.Open(busybox); err != nil {
		skipOrFail(t, "busybox-static is not installed: "+err.Error())
	} else {
		dynamic := slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP })
		f.Close()
		if dynamic {
			skipOrFail(t, busybox+" is dynamically linked (Debian's busybox): install busybox-static")
		}
	}
	bb, err := os.ReadFile(busybox)
	if err != nil {
		t.Fatal(err)
	}
	e := startEngine(t)
	e.importImage(t, "sa-label:test", map[string]imageFile{"bin/busybox": {bb, 0o755}})
	const label = "sandbox-audit.role"
	agents := []string{"agent-a", "agent-b", "agent-c", "agent-d", "agent-e", "agent-f", "agent-g"}
	for _, name := range agents {
		e.start(t, name, map[string]string{label: "agent", "team": "infra"}, true)
	}
	e.start(t, "db", map[string]string{label: "platform"}, true)
	e.start(t, "plain", nil, true)
	e.start(t, "agent-created", map[string]string{label: "agent"}, false)

	dir := t.TempDir()
	inv := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(inv, []byte("version: 1\ntargets:\n  - docker_label: "+label+"=agent\n  - docker_label: "+label+"=none\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	parsed, err := fleet.LoadInventory(inv)
	if err != nil {
		t.Fatal(err)
	}
	targets, err := parsed.Expand()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := fleet.OpenStore(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	host := "unix://" + e.sock

	sum, err := fleet.Scan(ctx, targets, st, fleet.Options{Concurrency: 2, DockerHost: host})
	if err != nil || !sum.RunComplete || sum.Failed != 1 {
		t.Fatalf("unsharded: %+v, %v", sum, err)
	}
	res, err := st.Results(ctx, sum.Run)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range agents {
		want = append(want, "docker://"+n)
	}
	none := "docker_label:" + label + "=none"
	if diff := cmp.Diff(append(slices.Clone(want), none), sortedKeys(res)); diff != "" {
		t.Fatalf("stored targets (-want +got):\n%s", diff)
	}
	for _, id := range want {
		r := res[id]
		if r.Error != "" || r.Verdict == "" {
			t.Errorf("%s: error %q, verdict %q", id, r.Error, r.Verdict)
		}
		// Read as itself: every finding is located at that container.
		if len(r.Findings) == 0 {
			t.Errorf("%s: no findings (a root container with no seccomp profile named has some)", id)
		}
		for _, f := range r.Findings {
			if f.File != "docker/"+strings.TrimPrefix(id, "docker://") {
				t.Errorf("%s: finding %s at %s", id, f.Rule, f.File)
			}
		}
	}
	if r := res[none]; !strings.Contains(r.Error, "no running container has label "+label+"=none") {
		t.Errorf("the entry that matched no container: %+v", r)
	}

	// Shards 1 to 3 of one run: each audits its part, no two the same
	// target, together all of them; the third completes the run.
	var mu sync.Mutex
	audited := map[string][]int{}
	for i := 1; i <= 3; i++ {
		progress := func(_, _ int, tg fleet.Target, _ error) {
			mu.Lock()
			audited[tg.ID] = append(audited[tg.ID], i)
			mu.Unlock()
		}
		s, err := fleet.Scan(ctx, targets, st, fleet.Options{Concurrency: 2, DockerHost: host, Progress: progress,
			Run: fleet.RunSpec{Name: "sharded", Shards: 3}, Shard: i})
		if err != nil || !s.Complete || s.RunComplete != (i == 3) {
			t.Fatalf("shard %d/3: %+v, %v", i, s, err)
		}
		if s.Targets == 0 || s.Targets == len(want)+1 {
			t.Errorf("shard %d/3 holds %d of %d targets: not a part", i, s.Targets, len(want)+1)
		}
	}
	if diff := cmp.Diff(append(slices.Clone(want), none), sortedKeys(audited)); diff != "" {
		t.Errorf("targets the shards audited (-want +got):\n%s", diff)
	}
	for id, shards := range audited {
		if len(shards) != 1 {
			t.Errorf("%s audited by shards %v", id, shards)
		}
	}

	// What a user sees: fleet scan exits 2, fleet report names the entry.
	bin := staticBinary(t)
	for _, c := range []struct {
		args   []string
		code   int
		output string
	}{
		{[]string{"fleet", "scan", "--inventory", inv, "--store", filepath.Join(dir, "cli.db")}, 2, "8 targets stored"},
		{[]string{"fleet", "report", "--store", filepath.Join(dir, "cli.db"), "-f", "markdown"}, 0, md(none + ": docker_label: no running container has label " + label + "=none")},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), "DOCKER_HOST="+host)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(string(out), c.output) {
			t.Errorf("%v: exit %d (%v), want %d and %q in:\n%s", c.args, code, err, c.code, c.output, out)
		}
	}
}

// start creates a container of the busybox image that sleeps, with labels,
// on no network, and starts it unless told not to (removed at cleanup).
func (e *engine) start(t *testing.T, name string, labels map[string]string, run bool) {
	t.Helper()
	create := map[string]any{"Image": "sa-label:test", "Cmd": []string{"/bin/busybox", "sleep", "3600"}, "Labels": labels,
		"HostConfig": map[string]any{"NetworkMode": "none"}}
	var created struct{ Id string }
	if _, err := e.call(t, "POST", "/containers/create?name="+url.QueryEscape(name), create, &created); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.call(t, "DELETE", "/containers/"+created.Id+"?force=1", nil, nil) })
	if run {
		if _, err := e.call(t, "POST", "/containers/"+created.Id+"/start", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// md is s as Markdown writes it.
func md(s string) string { return strings.ReplaceAll(s, "_", `\_`) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
