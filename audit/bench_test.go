package audit

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
)

// BenchmarkScanCorpus runs the whole pipeline (walk, parse, rules, score) on
// the generated 5,000-file corpus, with the engine compiled once as in a
// fleet scan. Compare with bench/compare.sh for trivy config and conftest.
func BenchmarkScanCorpus(b *testing.B) {
	dir := b.TempDir()
	const n = 5000
	if err := corpus.Generate(dir, n, 1); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	eng, err := NewEngine(ctx, nil, nil, Everything)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rep, err := eng.Run(ctx, Options{Path: dir, Now: time.Now()})
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Findings) == 0 {
			b.Fatal("no findings on an insecure corpus")
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkScanSmallRepo is one small repository as a CLI run does it
// (Audit: rules compiled for the inputs at hand, while the collectors read):
// what a CI invocation pays, engine compile included.
func BenchmarkScanSmallRepo(b *testing.B) {
	dir := filepath.Join("..", "fixtures", "scenarios", "devcontainer-dood")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Audit(ctx, Options{Path: dir, Now: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCollectCorpus is the collectors alone (walk + parse), to separate
// parsing cost from rule evaluation.
func BenchmarkCollectCorpus(b *testing.B) {
	dir := b.TempDir()
	if err := corpus.Generate(dir, 5000, 1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := collectors.Scan(context.Background(), dir, collectors.Options{Collectors: registry.All()}); err != nil {
			b.Fatal(err)
		}
	}
}
