package main

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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

// gcPacer holds the garbage collector's settings for a CLI run: no
// collection while the heap is small (a small scan allocates mostly garbage
// and never needs one), proportional pacing once a collection finds a live
// heap of more than half the soft limit. Without that switch a large scan's
// live heap neared the limit and the collector ran back to back: 50,000
// files took 39x the time of 5,000, most of it collecting.
//
// Once paced, the heap may grow past the live heap by about two thirds of
// the soft limit (64 MiB) before the next collection, and by no less than
// half the live heap nor more than all of it (GOGC between 50 and 100, set
// after every collection from the live heap it found): Go's default of
// GOGC=100 let the 50,000-file corpus (some 125 MB live) reach a 250 MB
// heap and 340 MiB of RSS, most of it garbage waiting for a collection.
type gcPacer struct {
	limit   int64 // the soft limit the run starts with
	ceiling int64 // the hard limit once paced (a cgroup's, or none)
	live    func() uint64
	paced   atomic.Bool  // written by the finalizer goroutine
	percent atomic.Int32 // the GOGC last set once paced
}

// afterGC is called after each collection; it reports whether to keep
// watching (always, but for a pacer that cannot pace: no soft limit).
func (p *gcPacer) afterGC() bool {
	live := int64(p.live())
	if !p.paced.Load() {
		if live <= p.limit/2 {
			return true
		}
		p.paced.Store(true)
		debug.SetMemoryLimit(p.ceiling)
	}
	if pc := pacedPercent(live, p.limit); int32(pc) != p.percent.Load() {
		p.percent.Store(int32(pc))
		debug.SetGCPercent(pc)
	}
	return p.limit > 0
}

// pacedPercent is the GOGC that lets the heap grow by two thirds of the
// soft limit past live, within [50, 100].
func pacedPercent(live, limit int64) int {
	if live <= 0 {
		return 100
	}
	return int(min(100, max(50, 100*(limit*2/3)/live)))
}

// watch calls afterGC after every collection until it returns false: a
// finalizer runs once the object it guards has been found unreachable,
// that is, after a cycle.
func (p *gcPacer) watch() {
	s := new([16]byte) // not a tiny allocation: those share blocks and finalize late
	runtime.SetFinalizer(s, func(*[16]byte) {
		if p.afterGC() {
			p.watch()
		}
	})
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
