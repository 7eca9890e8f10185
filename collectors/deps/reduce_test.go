package deps

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReduceEquivalent: cataloging only the entries that differ gives the
// same result as cataloging both whole lockfiles, for every format with a
// reducer (npm, yarn); the formats read without syft (Go, Python, Rust)
// ride along to show the reduction leaves them alone.
func TestReduceEquivalent(t *testing.T) {
	g := newGitRepo(t)
	for _, e := range []string{"npm", "go", "python", "cargo"} {
		g.copyDir(filepath.Join(fixtureDir, e, "base"), e)
	}
	yarnBase := "# yarn lockfile v1\n\n\nleft-pad@^1.3.0:\n  version \"1.3.0\"\n  resolved \"https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#abc\"\n\nlodash@^4.17.20:\n  version \"4.17.20\"\n  resolved \"https://registry.yarnpkg.com/lodash/-/lodash-4.17.20.tgz#def\"\n\nms@2.1.2:\n  version \"2.1.2\"\n  resolved \"https://registry.yarnpkg.com/ms/-/ms-2.1.2.tgz#aaa\"\n"
	uvBase := "version = 1\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\nsource = { editable = \".\" }\n\n[package.metadata]\nrequires-dist = [{ name = \"requests\" }]\n\n[[package]]\nname = \"requests\"\nversion = \"2.31.0\"\nsource = { registry = \"https://pypi.org/simple\" }\nwheels = [{ url = \"https://files.pythonhosted.org/requests-2.31.0-py3-none-any.whl\" }]\n\n[[package]]\nname = \"idna\"\nversion = \"3.6\"\nsource = { registry = \"https://pypi.org/simple\" }\nwheels = [{ url = \"https://files.pythonhosted.org/idna-3.6-py3-none-any.whl\" }]\n"
	g.write(map[string]string{"yarn/yarn.lock": yarnBase, "uv/uv.lock": uvBase})
	g.commit("base")
	for _, e := range []string{"npm", "go", "python", "cargo"} {
		g.copyDir(filepath.Join(fixtureDir, e, "head"), e)
	}
	g.write(map[string]string{
		"yarn/yarn.lock": strings.NewReplacer("4.17.20", "4.17.21", "registry.yarnpkg.com/left-pad", "npm.evil.example/left-pad").Replace(yarnBase) +
			"\n\"@babel/traverse@^7.23.0\":\n  version \"7.23.0\"\n  resolved \"https://registry.yarnpkg.com/@babel/traverse/-/traverse-7.23.0.tgz#bbb\"\n",
		"uv/uv.lock": strings.Replace(uvBase, "2.31.0", "2.30.0", -1) +
			"\n[[package]]\nname = \"legacy\"\nversion = \"1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\nsdist = { url = \"https://files.pythonhosted.org/legacy-1.0.tar.gz\" }\n",
	})
	dbDir := fixtureDB(t)
	scan := func(reduce bool) []string {
		reduceLockfiles = reduce
		defer func() { reduceLockfiles = true }()
		d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: dbDir})
		if err != nil || len(errs) > 0 {
			t.Fatal(err, errs)
		}
		return summaries(d)
	}
	full, reduced := scan(false), scan(true)
	if diff := cmp.Diff(full, reduced); diff != "" {
		t.Errorf("reduced differs from full (-full +reduced):\n%s", diff)
	}
	for _, want := range []string{
		"npm left-pad 1.3.0>1.3.0 source-changed yarn/yarn.lock:4 registry host=registry.yarnpkg.com>npm.evil.example",
		"npm lodash 4.17.20>4.17.21 upgraded yarn/yarn.lock:8 registry host=registry.yarnpkg.com>registry.yarnpkg.com",
		"pypi requests 2.31.0>2.30.0 downgraded uv/uv.lock:12 registry host=pypi.org>pypi.org vulns=CVE-2023-32681/medium/fix=2.31.0",
		"pypi legacy >1.0 added uv/uv.lock:24 registry host=>pypi.org script",
	} {
		found := false
		for _, s := range reduced {
			found = found || s == want
		}
		if !found {
			t.Errorf("missing %q in\n%s", want, strings.Join(reduced, "\n"))
		}
	}
}
