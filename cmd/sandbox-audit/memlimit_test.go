package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestCgroupMemoryLimit(t *testing.T) {
	tree := func(files map[string]string) string {
		root := t.TempDir()
		for p, c := range files {
			abs := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	for name, c := range map[string]struct {
		files map[string]string
		want  int64
	}{
		"v2 container": {map[string]string{"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "67108864\n"}, 64 << 20},
		"v2 unlimited": {map[string]string{"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "max\n"}, 0},
		"v2 nested, parent smaller": {map[string]string{
			"proc/self/cgroup":                          "0::/kubepods/pod1/c1\n",
			"sys/fs/cgroup/kubepods/pod1/c1/memory.max": "536870912\n",
			"sys/fs/cgroup/kubepods/pod1/memory.max":    "268435456\n",
			"sys/fs/cgroup/kubepods/memory.max":         "max\n",
		}, 256 << 20},
		"v1": {map[string]string{
			"proc/self/cgroup": "5:cpu,cpuacct:/\n4:memory:/docker/abc\n0::/\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "134217728\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            "9223372036854771712\n",
		}, 128 << 20},
		"v1 unlimited":   {map[string]string{"proc/self/cgroup": "4:memory:/\n", "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}, 0},
		"no cgroup file": {map[string]string{}, 0},
		"garbage":        {map[string]string{"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "lots\n"}, 0},
	} {
		if got := cgroupMemoryLimit(tree(c.files)); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
}

// TestGCPacer: collections that find a small live heap leave the collector
// off; the first that finds more than half the soft limit live hands the
// run to proportional pacing under the ceiling, and every later one sets
// GOGC from the live heap it found: about 64 MiB of growth, within [50, 100].
func TestGCPacer(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(96 << 20))
	live := uint64(10 << 20)
	p := &gcPacer{limit: 96 << 20, ceiling: 1 << 30, live: func() uint64 { return live }}
	if !p.afterGC() || p.paced.Load() {
		t.Fatal("a 10 MB live heap must leave the collector off and keep watching")
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent %d before pacing, want -1 (off)", got)
	}
	for _, c := range []struct {
		live uint64
		want int
	}{{60 << 20, 100}, {128 << 20, 50}, {96 << 20, 66}, {1 << 30, 50}, {50 << 20, 100}} {
		live = c.live
		if !p.afterGC() || !p.paced.Load() {
			t.Fatalf("live %d MiB: a paced run keeps watching", c.live>>20)
		}
		got := debug.SetGCPercent(c.want)
		if got != c.want {
			t.Errorf("live %d MiB: GC percent %d once paced, want %d", c.live>>20, got, c.want)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("memory limit %d once paced, want the ceiling", got)
	}
}

// TestGCPacerWatch: the watch really runs after a collection.
func TestGCPacerWatch(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(96 << 20))
	p := &gcPacer{limit: 0, ceiling: math.MaxInt64, live: func() uint64 { return 1 }}
	p.watch()
	for range 5 {
		runtime.GC()
		deadline := time.Now().Add(200 * time.Millisecond)
		for time.Now().Before(deadline) {
			if p.paced.Load() {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	t.Fatal("afterGC was not called after five collections")
}
