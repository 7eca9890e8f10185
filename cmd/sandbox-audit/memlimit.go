package main

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// cgroupMemoryLimit returns the smallest memory limit set on the cgroups
// this process runs in (v2 memory.max, v1 memory.limit_in_bytes, from its
// own cgroup up to the root), or 0 when none is set or none can be read.
// root is "/" but for tests. Go does not read these limits itself.
func cgroupMemoryLimit(root string) int64 {
	data, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	var limit int64
	consider := func(p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			return
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 || n >= 1<<60 { // "max", or v1's "unlimited" page-rounded MaxInt64
			return
		}
		if limit == 0 || n < limit {
			limit = n
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || !strings.HasPrefix(f[2], "/") {
			continue
		}
		var dir, file string
		switch {
		case f[0] == "0" && f[1] == "":
			dir, file = "sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			dir, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean(f[2]); ; p = path.Dir(p) {
			consider(filepath.Join(root, dir, p, file))
			if p == "/" {
				break
			}
		}
	}
	return limit
}
