package deps

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/anchore/syft/syft/pkg"
	"github.com/anchore/syft/syft/pkg/cataloger/golang"
	"github.com/anchore/syft/syft/pkg/cataloger/php"
	"github.com/anchore/syft/syft/pkg/cataloger/python"
	"github.com/anchore/syft/syft/pkg/cataloger/rust"
	"github.com/google/go-cmp/cmp"
)

// syftOwnCatalogers are syft's catalogers for the formats own.go reads.
// Only this test links them.
func syftOwnCatalogers() []pkg.Cataloger {
	gocfg := golang.DefaultCatalogerConfig()
	gocfg.UsePackagesLib = false
	gocfg.SearchRemoteLicenses = false
	gocfg.SearchLocalModCacheLicenses = false
	gocfg.SearchLocalVendorLicenses = false
	pycfg := python.DefaultCatalogerConfig()
	pycfg.SearchRemoteLicenses = false
	pycfg.GuessUnpinnedRequirements = false
	return []pkg.Cataloger{
		golang.NewGoModuleFileCataloger(gocfg),
		python.NewPackageCataloger(pycfg),
		rust.NewCargoLockCataloger(),
		php.NewComposerLockCataloger(),
	}
}

// TestOwnMatchesSyft: each lockfile format read here lists the packages
// syft's cataloger lists (ecosystem, name, version), on the shipped
// fixtures and on samples of the formats without one; dev sections syft
// leaves out (Pipfile.lock "develop", composer.lock "packages-dev") are the
// only extra packages.
func TestOwnMatchesSyft(t *testing.T) {
	samples := map[string]struct {
		text  string
		extra []string // listed here, not by syft
	}{}
	for _, f := range []string{"go/base/go.mod", "go/head/go.mod", "python/base/poetry.lock", "python/head/poetry.lock",
		"python/base/requirements.txt", "python/head/requirements.txt", "cargo/base/Cargo.lock", "cargo/head/Cargo.lock"} {
		samples[f] = struct {
			text  string
			extra []string
		}{text: readFixture(t, f)}
	}
	add := func(name, text string, extra ...string) {
		samples[name] = struct {
			text  string
			extra []string
		}{text, extra}
	}
	add("replace/go.mod", "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/c/d v1.2.0\n\tgithub.com/e/f v0.3.0 // indirect\n\tgolang.org/x/text v0.14.0\n)\n\nreplace github.com/a/b => github.com/fork/b v1.0.1\n\nreplace github.com/c/d => ../d\n\nreplace example.com/unused v1.0.0 => example.com/other v2.0.0+incompatible\n\nexclude golang.org/x/text v0.13.0\n",
		"golang golang.org/x/text v0.14.0") // syft drops every version of an excluded module
	add("exclude-same/go.mod", "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/c/d v1.2.0\n)\n\nexclude github.com/c/d v1.2.0\n")
	add("uv/uv.lock", "version = 1\nrequires-python = \">=3.11\"\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\nsource = { editable = \".\" }\n\n[[package]]\nname = \"Requests\"\nversion = \"2.31.0\"\nsource = { registry = \"https://pypi.org/simple\" }\nwheels = [{ url = \"https://files.pythonhosted.org/requests-2.31.0-py3-none-any.whl\" }]\n\n[[package]]\nname = \"zope.interface\"\nversion = \"6.1\"\nsource = { registry = \"https://pypi.org/simple\" }\nsdist = { url = \"https://files.pythonhosted.org/zope.interface-6.1.tar.gz\" }\n\n[[package]]\nname = \"mylib\"\nversion = \"0.2.0\"\nsource = { git = \"https://github.com/example/mylib?rev=abc#abc\" }\n")
	add("pdm/pdm.lock", "[metadata]\ngroups = [\"default\", \"dev\"]\nlock_version = \"4.4\"\n\n[[package]]\nname = \"requests\"\nversion = \"2.31.0\"\ngroups = [\"default\"]\nfiles = [\n    {file = \"requests-2.31.0-py3-none-any.whl\", hash = \"sha256:aa\"},\n]\n\n[[package]]\nname = \"requests\"\nversion = \"2.31.0\"\nextras = [\"socks\"]\ngroups = [\"default\"]\n\n[[package]]\nname = \"Flask_Login\"\nversion = \"0.6.3\"\ngroups = [\"dev\"]\nfiles = [\n    {file = \"Flask-Login-0.6.3.tar.gz\", hash = \"sha256:bb\"},\n]\n")
	add("pipenv/Pipfile.lock", `{
    "_meta": {"hash": {"sha256": "x"}, "pipfile-spec": 6, "requires": {"python_version": "3.11"},
        "sources": [{"name": "pypi", "url": "https://pypi.org/simple", "verify_ssl": true}, {"name": "corp", "url": "https://pypi.corp.example/simple", "verify_ssl": true}]},
    "default": {
        "requests": {"hashes": ["sha256:aa"], "index": "pypi", "version": "==2.31.0"},
        "Django": {"hashes": ["sha256:bb"], "index": "corp", "version": "==4.2.7"},
        "mylib": {"git": "https://github.com/example/mylib.git", "ref": "abc"}
    },
    "develop": {
        "pytest": {"hashes": ["sha256:cc"], "index": "pypi", "version": "==8.0.0"}
    }
}`, "pypi pytest 8.0.0")
	add("php/composer.lock", `{
    "_readme": ["This file locks the dependencies of your project to a known state"],
    "content-hash": "abc",
    "packages": [
        {"name": "monolog/monolog", "version": "2.9.1", "source": {"type": "git", "url": "https://github.com/Seldaek/monolog.git", "reference": "f259e2b"},
         "dist": {"type": "zip", "url": "https://api.github.com/repos/Seldaek/monolog/zipball/f259e2b", "reference": "f259e2b", "shasum": ""},
         "type": "library", "notification-url": "https://packagist.org/downloads/"},
        {"name": "acme/installer", "version": "v1.0.0", "dist": {"type": "path", "url": "../installer", "reference": "x"}, "type": "composer-plugin"}
    ],
    "packages-dev": [
        {"name": "phpunit/phpunit", "version": "10.5.0", "dist": {"type": "zip", "url": "https://api.github.com/repos/sebastianbergmann/phpunit/zipball/1"}, "type": "library", "notification-url": "https://packagist.org/downloads/"}
    ]
}`, "composer phpunit/phpunit 10.5.0")

	root := t.TempDir()
	var names []string
	for name, s := range samples {
		p := filepath.Join(root, "head", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s.text), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	found, err := catalog(context.Background(), root, map[string][]string{"head": names}, syftOwnCatalogers())
	if err != nil {
		t.Fatal(err)
	}
	theirs := map[string][]string{}
	for _, f := range found {
		theirs[f.file] = append(theirs[f.file], f.eco+" "+f.name+" "+f.version)
	}
	for _, name := range names {
		ix, err := indexLockfile(name, []byte(samples[name].text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var ours []string
		for _, o := range ix.own {
			if isRequirements(filepath.Base(name)) && o.version == "" {
				continue // an unpinned requirement: syft does not guess
			}
			ours = append(ours, o.eco+" "+o.name+" "+o.version)
		}
		want := append(append([]string{}, theirs[name]...), samples[name].extra...)
		sort.Strings(ours)
		sort.Strings(want)
		if len(want) == 0 {
			t.Errorf("%s: syft listed nothing", name)
		}
		if diff := cmp.Diff(want, ours); diff != "" {
			t.Errorf("%s (-syft +ours):\n%s", name, diff)
		}
	}
}

// TestPEP503 follows the specification's examples.
func TestPEP503(t *testing.T) {
	for in, want := range map[string]string{"Friendly-Bard": "friendly-bard", "FRIENDLY-BARD": "friendly-bard", "friendly.bard": "friendly-bard", "friendly_bard": "friendly-bard", "friendly--bard": "friendly-bard", "FrIeNdLy-._.-bArD": "friendly-bard"} {
		if got := pep503(in); got != want {
			t.Errorf("pep503(%q) = %q, want %q", in, got, want)
		}
	}
	if strings.Contains(pep503("a__b"), "--") {
		t.Error("runs not collapsed")
	}
}

// TestScanPipfileComposerPdm: the formats syft read before own.go existed
// without a fixture pair of their own, end to end through a real repository.
func TestScanPipfileComposerPdm(t *testing.T) {
	g := newGitRepo(t)
	pipBase := `{"_meta": {"sources": [{"name": "pypi", "url": "https://pypi.org/simple"}]},
"default": {
  "requests": {"index": "pypi", "version": "==2.31.0"}
},
"develop": {}}
`
	composerBase := `{"packages": [
  {"name": "monolog/monolog", "version": "2.9.1", "require": {"acme/plugin": "^1.0"}, "dist": {"type": "zip", "url": "https://api.github.com/x"}, "notification-url": "https://packagist.org/downloads/"}
], "packages-dev": []}
`
	pdmBase := "[[package]]\nname = \"idna\"\nversion = \"3.6\"\nfiles = [{file = \"idna-3.6-py3-none-any.whl\"}]\n"
	g.write(map[string]string{"py/Pipfile.lock": pipBase, "php/composer.lock": composerBase, "pdm/pdm.lock": pdmBase})
	g.commit("base")
	g.write(map[string]string{
		"py/Pipfile.lock": strings.Replace(pipBase, `"develop": {}`, `"develop": {
  "evil": {"git": "https://git.evil.example/evil.git", "ref": "abc"}
}`, 1),
		"php/composer.lock": strings.Replace(composerBase, `"packages-dev": []`, `"packages-dev": [
  {"name": "acme/plugin", "version": "1.0.0", "type": "composer-plugin", "dist": {"type": "zip", "url": "https://repo.evil.example/p.zip"}}
]`, 1),
		"pdm/pdm.lock": strings.Replace(pdmBase, "3.6", "3.4", -1) + "\n[[package]]\nname = \"legacy\"\nversion = \"1.0\"\nfiles = [{file = \"legacy-1.0.tar.gz\"}]\n",
	})
	g.commit("head")
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "HEAD~1", Head: "HEAD", DBDir: fixtureDB(t)})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	want := []string{
		"composer acme/plugin >1.0.0 added php/composer.lock:4 registry host=>repo.evil.example script",
		"pypi idna 3.6>3.4 downgraded pdm/pdm.lock:2 registry host=pypi.org>pypi.org",
		"pypi legacy >1.0 added pdm/pdm.lock:7 registry host=>pypi.org script",
		"pypi evil > added py/Pipfile.lock:6 git host=>git.evil.example script",
	}
	got := summaries(d)
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}
