package main

import (
	"os"
	"path/filepath"
	"testing"
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
