package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
	"github.com/sandbox-audit/sandbox-audit/reports"
)

// composeSizes are the file sizes of issue 13: 70,000 services are a 7.5 MB
// compose file, under the 8 MB limit for one configuration file.
var composeSizes = []int{10_000, 35_000, 70_000}

// BenchmarkComposeServices audits one compose file of n services end to
// end (collect, rules, score, JSON report), the engine compiled once, and
// each stage on its own so a super-linear step shows which one it is. Time
// and allocations must grow linearly with n: compare ns/op and B/op of
// 10k and 70k (7x the services, about 7x the cost).
func BenchmarkComposeServices(b *testing.B) {
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Scope{Config: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range composeSizes {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), corpus.ComposeServices(n), 0o644); err != nil {
			b.Fatal(err)
		}
		opt := Options{Path: dir, Now: time.Now()}
		b.Run(fmt.Sprintf("audit/services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				rep, err := eng.Run(ctx, opt)
				if err != nil {
					b.Fatal(err)
				}
				if len(rep.Findings) < n/10 {
					b.Fatalf("%d findings for %d services", len(rep.Findings), n)
				}
				if err := (reports.JSON{}).Write(discard{}, rep); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "services/s")
		})
		b.Run(fmt.Sprintf("collect/services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				doc, errs, err := collectors.Scan(ctx, dir, collectors.Options{Collectors: registry.All()})
				if err != nil || len(errs) != 0 || len(doc.Workloads) != n {
					b.Fatalf("Scan = %d workloads, %v, %v", len(doc.Workloads), errs, err)
				}
			}
		})
		col, err := Collect(ctx, opt)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("judge/services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := eng.Judge(ctx, col, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU adds the process's CPU time per op to the benchmark: on a
// machine shared with other jobs, wall time says more about them.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
