package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
)

// BenchmarkFleetScan audits generated repositories (10 files each) in one
// fleet run into a fresh SQLite store, per --concurrency. 100 targets by
// default; SANDBOX_AUDIT_BENCH_TARGETS=1000 for the fleet size:
//
//	SANDBOX_AUDIT_BENCH_TARGETS=1000 go test ./internal/fleet -run '^$' -bench FleetScan -benchtime 1x
//
// bench/fleet.sh runs the same fleet as whole processes, side by side with
// one scan process per repository.
func BenchmarkFleetScan(b *testing.B) {
	n := 100
	if v, err := strconv.Atoi(os.Getenv("SANDBOX_AUDIT_BENCH_TARGETS")); err == nil && v > 0 {
		n = v
	}
	root := b.TempDir()
	if err := corpus.Generate(filepath.Join(root, "corpus"), n*10, 1); err != nil {
		b.Fatal(err)
	}
	inv := &Inventory{Dir: root, Targets: []TargetDef{{Path: "corpus/repo-*"}}}
	for _, c := range []int{1, 2} {
		b.Run(fmt.Sprintf("targets=%d/concurrency=%d", n, c), func(b *testing.B) {
			ctx := context.Background()
			var size int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db := filepath.Join(b.TempDir(), "h.db")
				st, err := OpenStore(ctx, db)
				if err != nil {
					b.Fatal(err)
				}
				ts, err := inv.Expand()
				if err != nil || len(ts) != n {
					b.Fatalf("%d targets, %v; want %d", len(ts), err, n)
				}
				b.StartTimer()
				sum, err := Scan(ctx, ts, st, Options{Concurrency: c})
				b.StopTimer()
				if err != nil || !sum.Complete || sum.Stored != n {
					b.Fatalf("summary %+v, %v", sum, err)
				}
				if err := st.Close(); err != nil {
					b.Fatal(err)
				}
				if fi, err := os.Stat(db); err == nil {
					size = fi.Size()
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "targets/s")
			b.ReportMetric(float64(size)/(1<<20), "store-MiB")
		})
	}
}
