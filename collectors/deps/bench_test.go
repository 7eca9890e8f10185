package deps

import (
	"context"
	"fmt"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/bench/corpus"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// BenchmarkDiffNPM2000: a ~2,000-package package-lock.json where the change
// upgrades 25 packages and adds 25, matched against a warm database.
func BenchmarkDiffNPM2000(b *testing.B) {
	g := newGitRepo(b)
	g.write(map[string]string{"package-lock.json": string(corpus.PackageLock(2000, 0, 0))})
	g.commit("base")
	g.write(map[string]string{"package-lock.json": string(corpus.PackageLock(2000, 25, 25))})
	g.commit("head")
	dbDir := fixtureDB(b)
	opt := Options{Repo: g.dir, Base: "HEAD~1", Head: "HEAD", DBDir: dbDir}
	d, _, err := Scan(context.Background(), opt) // warm: page cache, license scanner
	if err != nil {
		b.Fatal(err)
	}
	if len(d.Packages) != 50 || !d.VulnMatched || countVulns(d) != 1 {
		b.Fatalf("got %d packages, matched=%v: %v", len(d.Packages), d.VulnMatched, summaries(d)[:3])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Scan(context.Background(), opt); err != nil {
			b.Fatal(err)
		}
	}
}

func countVulns(d *model.Deps) int {
	n := 0
	for _, p := range d.Packages {
		n += len(p.Vulnerabilities)
	}
	return n
}

// BenchmarkWorkTreeMonorepo: a work tree of 500 workspace manifests and a
// ~2,000-package lockfile, one manifest edited and not committed. The work
// tree is compared by hashing its dependency files (worktree.go), not by
// git diff: this is what that costs.
func BenchmarkWorkTreeMonorepo(b *testing.B) {
	g := newGitRepo(b)
	files := map[string]string{"package-lock.json": string(corpus.PackageLock(2000, 0, 0))}
	for i := range 500 {
		files[fmt.Sprintf("packages/p%03d/package.json", i)] = fmt.Sprintf(`{"name":"p%03d","version":"1.0.0","dependencies":{"left-pad":"^1.3.0"}}`, i)
	}
	g.write(files)
	g.commit("base")
	g.write(map[string]string{"packages/p007/package.json": `{"name":"p007","version":"1.0.0","dependencies":{"left-pad":"^1.3.0","lodash":"^4.17.21"}}`})
	opt := Options{Repo: g.dir, Base: "HEAD", DBDir: b.TempDir()}
	d, _, err := Scan(context.Background(), opt)
	if err != nil {
		b.Fatal(err)
	}
	if len(d.ChangedFiles) != 1 {
		b.Fatalf("changed files %v", d.ChangedFiles)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Scan(context.Background(), opt); err != nil {
			b.Fatal(err)
		}
	}
}
