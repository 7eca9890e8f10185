package deps

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// genPackageLock writes a lockfileVersion 3 package-lock.json with n
// packages; bump changes the version of the first bump packages and adds
// add new ones (lodash@4.17.20, vulnerable, among them).
func genPackageLock(n, bump, add int) string {
	pkgs := map[string]any{"": map[string]any{"name": "big", "version": "1.0.0"}}
	entry := func(name, version string) map[string]any {
		return map[string]any{
			"version":   version,
			"resolved":  fmt.Sprintf("https://registry.npmjs.org/%s/-/%s-%s.tgz", name, name, version),
			"integrity": "sha512-" + fmt.Sprintf("%086d", len(name)) + "==",
			"dependencies": map[string]string{
				"dep-a": "^1.0.0", "dep-b": "^2.0.0",
			},
		}
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("pkg-%04d", i)
		v := fmt.Sprintf("1.%d.0", i%17)
		if i < bump {
			v = fmt.Sprintf("1.%d.1", i%17)
		}
		pkgs["node_modules/"+name] = entry(name, v)
	}
	for i := 0; i < add; i++ {
		name := fmt.Sprintf("new-%03d", i)
		if i == 0 {
			name = "lodash"
		}
		e := entry(name, "4.17.20")
		e["hasInstallScript"] = i%5 == 0
		pkgs["node_modules/"+name] = e
	}
	b, _ := json.MarshalIndent(map[string]any{
		"name": "big", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": pkgs,
	}, "", "  ")
	return string(b)
}

// BenchmarkDiffNPM2000: a ~2,000-package package-lock.json where the change
// upgrades 25 packages and adds 25, matched against a warm database.
func BenchmarkDiffNPM2000(b *testing.B) {
	g := newGitRepo(b)
	g.write(map[string]string{"package-lock.json": genPackageLock(2000, 0, 0)})
	g.commit("base")
	g.write(map[string]string{"package-lock.json": genPackageLock(2000, 25, 25)})
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
