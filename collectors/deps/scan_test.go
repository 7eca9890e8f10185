package deps

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// summary renders a package as one comparable line: what changed, where,
// from where, and which advisories matched.
func summary(p model.DepPackage) string {
	var ids []string
	for _, v := range p.Vulnerabilities {
		ids = append(ids, v.ID+"/"+v.Severity+"/fix="+v.FixedVersion)
	}
	src := p.Source
	if p.Change == "removed" {
		src = p.PreviousSource
	}
	s := fmt.Sprintf("%s %s %s>%s %s %s:%d %s", p.Ecosystem, p.Name, p.PreviousVersion, p.Version, p.Change, p.File, p.Line, src)
	if p.ResolvedHost != "" || p.PreviousResolvedHost != "" {
		s += " host=" + p.PreviousResolvedHost + ">" + p.ResolvedHost
	}
	if p.InstallScript {
		s += " script"
	}
	if len(ids) > 0 {
		s += " vulns=" + strings.Join(ids, ",")
	}
	return s
}

func summaries(d *model.Deps) []string {
	out := []string{}
	for _, p := range d.Packages {
		out = append(out, summary(p))
	}
	return out
}

// TestScanEcosystems builds one real repository per ecosystem from the
// fixture lockfile pairs (base commit, head commit) and scans base..head.
func TestScanEcosystems(t *testing.T) {
	dbDir := fixtureDB(t)
	tests := []struct {
		eco  string
		want []string
	}{
		{"npm", []string{
			"npm @babel/traverse >7.23.0 added package-lock.json:22 registry host=>registry.npmjs.org vulns=CVE-2023-45133/critical/fix=7.23.2, 8.0.0-alpha.4",
			"npm debug 4.3.4>4.3.4 source-changed package-lock.json:27 registry host=registry.npmjs.org>npm.evil.example",
			"npm ms 2.1.2>2.1.3 upgraded package-lock.json:35 registry host=registry.npmjs.org>registry.npmjs.org",
			"npm esbuild >0.19.0 added package-lock.json:40 registry host=>registry.npmjs.org script",
			"npm evil-pkg >1.0.0 added package-lock.json:49 git host=>github.com script",
			"npm lodash 4.17.20>4.17.21 upgraded package-lock.json:64 registry host=registry.npmjs.org>registry.npmjs.org",
			"npm minimist 1.2.6>1.2.5 downgraded package-lock.json:69 registry host=registry.npmjs.org>registry.npmjs.org vulns=CVE-2021-44906/critical/fix=1.2.6, 0.2.4",
			"npm tarball-pkg >1.0.0 added package-lock.json:74 tarball host=>cdn.example.com",
			"npm local-lib >0.1.0 added package-lock.json:79 path",
		}},
		{"go", []string{
			"golang github.com/gin-gonic/gin >v1.9.0 added go.mod:6 registry vulns=CVE-2023-29401/medium/fix=1.9.1",
			"golang github.com/mattn/go-isatty >v0.0.20 added go.mod:7 registry",
			"golang golang.org/x/text v0.3.8>v0.3.7 downgraded go.mod:9 registry vulns=CVE-2022-32149/high/fix=0.3.8",
			"golang github.com/pkg/errors v0.9.1> source-changed go.mod:12 path",
		}},
		{"python", []string{
			"pypi django 4.2.3>4.2.2 downgraded poetry.lock:4 registry host=pypi.org>pypi.org vulns=CVE-2023-36053/high/fix=3.2.20, 4.1.10, 4.2.3",
			"pypi pycrypto >2.6.1 added poetry.lock:15 registry host=>pypi.org script",
			"pypi requests 2.31.0>2.30.0 downgraded requirements.txt:3 registry host=pypi.org>pypi.evil.example,pypi.org vulns=CVE-2023-32681/medium/fix=2.31.0",
			"pypi django 4.2.3> source-changed requirements.txt:4 registry host=pypi.org>pypi.evil.example,pypi.org",
			"pypi urllib3 2.0.7>2.0.7 source-changed requirements.txt:5 registry host=pypi.org>pypi.evil.example,pypi.org",
			"pypi flask > added requirements.txt:7 git host=>github.com script",
			"pypi mypkg > added requirements.txt:8 tarball host=>files.example.com script",
		}},
		{"cargo", []string{
			"cargo helper >0.3.0 added Cargo.lock:16 git host=>github.com",
			"cargo serde 1.0.100>1.0.200 upgraded Cargo.lock:21 registry host=crates.io>crates.io",
			"cargo smallvec 1.6.1>1.5.0 downgraded Cargo.lock:27 registry host=crates.io>crates.io vulns=RUSTSEC-2021-0003/critical/fix=>=1.6.1",
			"cargo time 0.2.23>0.2.22 downgraded Cargo.lock:33 registry host=crates.io>crates.io vulns=RUSTSEC-2020-0071/medium/fix=>=0.2.23",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.eco, func(t *testing.T) {
			g := newGitRepo(t)
			g.copyDir(filepath.Join(fixtureDir, tt.eco, "base"), "")
			base := g.commit("base")
			g.copyDir(filepath.Join(fixtureDir, tt.eco, "head"), "")
			head := g.commit("head")
			d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main~1", Head: "main", DBDir: dbDir})
			if err != nil {
				t.Fatal(err)
			}
			if len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			if d.Base.SHA != base || d.Head.SHA != head || d.MergeBase != base || d.Head.WorkTree {
				t.Errorf("refs = %+v %+v merge base %s, want %s..%s", d.Base, d.Head, d.MergeBase, base, head)
			}
			if !d.VulnMatched || d.DBStatus != "ok" || d.DBUpdated != "2026-11-01T00:00:00Z" {
				t.Errorf("db = %v %q %q", d.VulnMatched, d.DBStatus, d.DBUpdated)
			}
			if diff := cmp.Diff(tt.want, summaries(d)); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScanSignals checks the manifest-level signals of the fixture pairs.
func TestScanSignals(t *testing.T) {
	g := newGitRepo(t)
	ecos := []string{"npm", "go", "python", "cargo"}
	for _, e := range ecos {
		g.copyDir(filepath.Join(fixtureDir, e, "base"), e)
	}
	g.commit("base")
	for _, e := range ecos {
		g.copyDir(filepath.Join(fixtureDir, e, "head"), e)
	}
	g.commit("head")
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "HEAD~1", Head: "HEAD", DBDir: t.TempDir()})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	want := []model.WidenedRange{
		{Ecosystem: "cargo", Name: "serde", From: "=1.0.100", To: "1", Loc: model.Loc{File: "cargo/Cargo.toml", Line: 7}},
		{Ecosystem: "npm", Name: "left-pad", From: "^1.3.0", To: "*", Loc: model.Loc{File: "npm/package.json", Line: 10}},
		{Ecosystem: "npm", Name: "lodash", From: "4.17.20", To: "^4.17.21", Loc: model.Loc{File: "npm/package.json", Line: 12}},
		{Ecosystem: "pypi", Name: "django", From: "==4.2.3", To: ">=4.2", Loc: model.Loc{File: "python/requirements.txt", Line: 4}},
	}
	if diff := cmp.Diff(want, d.WidenedRanges); diff != "" {
		t.Errorf("widened (-want +got):\n%s", diff)
	}
	wantFiles := []string{"cargo/Cargo.lock", "cargo/Cargo.toml", "go/go.mod", "go/go.sum", "npm/package-lock.json",
		"npm/package.json", "python/poetry.lock", "python/pyproject.toml", "python/requirements.txt"}
	if diff := cmp.Diff(wantFiles, d.ChangedFiles); diff != "" {
		t.Errorf("changed files (-want +got):\n%s", diff)
	}
	if len(d.ManifestsWithoutLockfile)+len(d.RemovedLockfiles) != 0 {
		t.Errorf("lockfiles were updated with their manifests: %+v %+v", d.ManifestsWithoutLockfile, d.RemovedLockfiles)
	}
}

// TestScanWorkTree compares a commit with a dirty work tree: an edited
// go.mod whose go.sum is left alone, a deleted yarn.lock, an untracked new
// lockfile, and a committed-but-unchanged file that must not show.
func TestScanWorkTree(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "go", "base"), "svc")
	g.write(map[string]string{
		"web/package.json": `{"dependencies": {"left-pad": "1.3.0"}}`,
		"web/yarn.lock":    "# yarn lockfile v1\n\n\nleft-pad@1.3.0:\n  version \"1.3.0\"\n  resolved \"https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#abc\"\n",
		"README.md":        "hello\n",
	})
	g.commit("base")
	goMod, _ := os.ReadFile(filepath.Join(fixtureDir, "go", "base", "go.mod"))
	g.write(map[string]string{
		"svc/go.mod":       strings.Replace(string(goMod), "golang.org/x/text v0.3.8", "golang.org/x/text v0.3.7", 1),
		"README.md":        "changed\n",
		"tool/Cargo.toml":  "[package]\nname = \"tool\"\nversion = \"0.1.0\"\n\n[dependencies]\nsmallvec = \"*\"\n",
		"tool/Cargo.lock":  "version = 3\n\n[[package]]\nname = \"smallvec\"\nversion = \"1.5.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
		"web/package.json": `{"dependencies": {"left-pad": "1.3.0", "lodash": "4.17.20"}}`,
	})
	g.remove("web/yarn.lock")
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: fixtureDB(t)})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if !d.Head.WorkTree || d.Head.SHA != d.Base.SHA {
		t.Errorf("head = %+v, want the work tree on %s", d.Head, d.Base.SHA)
	}
	wantPkgs := []string{
		"golang golang.org/x/text v0.3.8>v0.3.7 downgraded svc/go.mod:7 registry vulns=CVE-2022-32149/high/fix=0.3.8",
		"cargo smallvec >1.5.0 added tool/Cargo.lock:4 registry host=>crates.io vulns=RUSTSEC-2021-0003/critical/fix=>=1.6.1",
		"npm left-pad 1.3.0> removed web/yarn.lock:4 registry host=registry.yarnpkg.com>",
	}
	if diff := cmp.Diff(wantPkgs, summaries(d)); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
	wantMissing := []model.ManifestChange{
		{Ecosystem: "golang", Lockfile: "svc/go.sum", Manifest: "svc/go.mod", Loc: model.Loc{File: "svc/go.mod", Line: 7}},
	}
	if diff := cmp.Diff(wantMissing, d.ManifestsWithoutLockfile); diff != "" {
		t.Errorf("manifests without lockfile (-want +got):\n%s", diff)
	}
	wantRemoved := []model.ManifestChange{
		{Ecosystem: "npm", Lockfile: "web/yarn.lock", Manifest: "web/package.json", Loc: model.Loc{File: "web/yarn.lock", Line: 1}},
	}
	if diff := cmp.Diff(wantRemoved, d.RemovedLockfiles); diff != "" {
		t.Errorf("removed lockfiles (-want +got):\n%s", diff)
	}
	wantWidened := []model.WidenedRange{
		{Ecosystem: "cargo", Name: "smallvec", To: "*", Loc: model.Loc{File: "tool/Cargo.toml", Line: 6}},
	}
	if diff := cmp.Diff(wantWidened, d.WidenedRanges); diff != "" {
		t.Errorf("widened (-want +got):\n%s", diff)
	}
}

// TestScanMergeBase: changes made on the base branch after the fork are not
// the change's, as in a pull request's diff.
func TestScanMergeBase(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "cargo", "base"), "")
	fork := g.commit("base")
	g.run("checkout", "-q", "-b", "agent")
	g.write(map[string]string{"Cargo.lock": strings.Replace(readFixture(t, "cargo/base/Cargo.lock"), `"1.0.100"`, `"1.0.101"`, 1)})
	g.commit("agent bumps serde")
	g.run("checkout", "-q", "main")
	g.write(map[string]string{"Cargo.lock": strings.Replace(readFixture(t, "cargo/base/Cargo.lock"), `"0.2.23"`, `"0.2.24"`, 1)})
	g.commit("main bumps time")
	d, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", Head: "agent", DBDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if d.MergeBase != fork {
		t.Errorf("merge base = %s, want %s", d.MergeBase, fork)
	}
	want := []string{"cargo serde 1.0.100>1.0.101 upgraded Cargo.lock:15 registry host=crates.io>crates.io"}
	if diff := cmp.Diff(want, summaries(d)); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}

// TestScanSubdir: a directory below the top level limits the scan to it and
// paths are relative to it, at a commit and in the work tree.
func TestScanSubdir(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "cargo", "base"), "services/tool")
	g.copyDir(filepath.Join(fixtureDir, "go", "base"), "other")
	g.commit("base")
	g.copyDir(filepath.Join(fixtureDir, "cargo", "head"), "services/tool")
	g.copyDir(filepath.Join(fixtureDir, "go", "head"), "other")
	for _, opt := range []Options{{Base: "main"}, {Base: "HEAD~1", Head: "HEAD"}} {
		head := opt.Head
		if head != "" {
			g.commit("head")
		}
		opt.Repo, opt.DBDir = filepath.Join(g.dir, "services"), t.TempDir()
		d, errs, err := Scan(context.Background(), opt)
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		if diff := cmp.Diff([]string{"tool/Cargo.lock", "tool/Cargo.toml"}, d.ChangedFiles); diff != "" {
			t.Errorf("head %q: changed files (-want +got):\n%s", head, diff)
		}
		if len(d.Packages) != 4 || d.Packages[0].File != "tool/Cargo.lock" {
			t.Errorf("head %q: packages = %v", head, summaries(d))
		}
	}
}

func readFixture(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestScanGitErrors: the scan cannot be done; the CLI maps these to exit 2.
func TestScanGitErrors(t *testing.T) {
	g := newGitRepo(t)
	g.write(map[string]string{"go.mod": "module x\n"})
	g.commit("base")
	tests := []struct {
		name string
		opt  Options
		want error
	}{
		{"not a git dir", Options{Repo: t.TempDir(), Base: "main"}, ErrNotGit},
		{"unknown base", Options{Repo: g.dir, Base: "no-such-branch"}, ErrUnknownRef},
		{"unknown head", Options{Repo: g.dir, Base: "main", Head: "deadbeef"}, ErrUnknownRef},
		{"option-like ref", Options{Repo: g.dir, Base: "--output=/tmp/x"}, ErrUnknownRef},
		{"empty base", Options{Repo: g.dir}, ErrUnknownRef},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _, err := Scan(context.Background(), tt.opt)
			if !errors.Is(err, tt.want) || d != nil {
				t.Errorf("Scan = %v, %v; want %v", d, err, tt.want)
			}
		})
	}
	if _, _, err := Scan(context.Background(), Options{Repo: filepath.Join(g.dir, "missing"), Base: "main"}); err == nil {
		t.Error("missing directory: no error")
	}
}

// TestScanNoDependencyChange: nothing to catalog, nothing reported, and
// the database state is still stated.
func TestScanNoDependencyChange(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.commit("base")
	g.write(map[string]string{"src/index.js": "console.log(1)\n"})
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "HEAD", DBDir: t.TempDir()})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if len(d.ChangedFiles) != 0 || len(d.Packages) != 0 || !strings.HasPrefix(d.DBStatus, "missing: ") {
		t.Errorf("got %+v", d)
	}
}

func sortedErrs(errs []model.Error) []model.Error {
	sort.Slice(errs, func(i, j int) bool { return errs[i].File < errs[j].File })
	return errs
}

// TestManifestOnlyChange: a manifest edited without its lockfile, beside
// it and in an npm workspace whose lockfile sits at the root. The unchanged
// lockfiles are not cataloged (they cannot differ) and add no packages.
func TestManifestOnlyChange(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.write(map[string]string{"packages/app/package.json": `{"name": "app", "dependencies": {"ms": "2.1.2"}}`})
	g.commit("base")
	g.write(map[string]string{
		"package.json":              strings.Replace(readFixture(t, "npm/base/package.json"), `"minimist": "1.2.6"`, `"minimist": "1.2.6",`+"\n    \"chalk\": \"^5.3.0\"", 1),
		"packages/app/package.json": `{"name": "app", "dependencies": {"ms": "2.1.2"}, "scripts": {"test": "node t.js"}}`,
	})
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	want := []model.ManifestChange{
		{Ecosystem: "npm", Lockfile: "package-lock.json", Manifest: "package.json", Loc: model.Loc{File: "package.json", Line: 10}},
	}
	if diff := cmp.Diff(want, d.ManifestsWithoutLockfile); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(d.Packages) != 0 {
		t.Errorf("packages = %v", summaries(d))
	}
	// A dependency change in the workspace member points at the root lockfile.
	g.write(map[string]string{"packages/app/package.json": `{"name": "app", "dependencies": {"ms": "2.1.3"}}`})
	d, _, err = Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, model.ManifestChange{Ecosystem: "npm", Lockfile: "package-lock.json", Manifest: "packages/app/package.json", Loc: model.Loc{File: "packages/app/package.json", Line: 1}})
	if diff := cmp.Diff(want, d.ManifestsWithoutLockfile); diff != "" {
		t.Errorf("workspace (-want +got):\n%s", diff)
	}
}

// TestScanCancelled: a cancelled context is reported as such, not as a
// missing repository or revision.
func TestScanCancelled(t *testing.T) {
	g := newGitRepo(t)
	g.write(map[string]string{"go.mod": "module x\n"})
	g.commit("base")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Scan(ctx, Options{Repo: g.dir, Base: "main"})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNotGit) || errors.Is(err, ErrUnknownRef) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
