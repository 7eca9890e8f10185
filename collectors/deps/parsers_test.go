package deps

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
)

// entries renders an index as name@version -> "line source host [script]".
func entries(ix *lockIndex) []string {
	ix.materializeAll()
	var out []string
	for k, e := range ix.byKey {
		s := fmt.Sprintf("%s %d %s %s", k, e.line, e.source, e.host)
		if e.installScript {
			s += " script"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func TestIndexLockfiles(t *testing.T) {
	tests := []struct {
		file, text string
		want       []string
	}{
		{"yarn.lock", `# yarn lockfile v1


"@babel/code-frame@^7.0.0", "@babel/code-frame@^7.22.13":
  version "7.22.13"
  resolved "https://registry.yarnpkg.com/@babel/code-frame/-/code-frame-7.22.13.tgz#e3c1c099"
  dependencies:
    version "9.9.9"

left-pad@^1.3.0:
  version "1.3.0"
  resolved "https://npm.corp.example/left-pad/-/left-pad-1.3.0.tgz#5b8a3a7765dfe001261dde915589e782f8c94d1e"

"mylib@git+https://github.com/me/mylib.git#abc":
  version "0.0.1"
  resolved "git+https://github.com/me/mylib.git#abc"
`, []string{
			"@babel/code-frame@7.22.13 4 registry registry.yarnpkg.com",
			"left-pad@1.3.0 10 registry npm.corp.example",
			"mylib@0.0.1 14 git github.com",
		}},
		{"yarn.lock", `__metadata:
  version: 8

"lodash@npm:^4.17.21":
  version: 4.17.21
  resolution: "lodash@npm:4.17.21"
  linkType: hard

"tool@https://example.com/tool-1.0.0.tgz":
  version: 1.0.0
  resolution: "tool@https://example.com/tool-1.0.0.tgz"

"app@workspace:.":
  version: 0.0.0-use.local
  resolution: "app@workspace:."
  linkType: soft
`, []string{
			"app@0.0.0-use.local 13 path ",
			"lodash@4.17.21 4 registry ",
			"tool@1.0.0 9 tarball example.com",
		}},
		{"pnpm-lock.yaml", `lockfileVersion: '6.0'
packages:
  /esbuild@0.19.0:
    resolution: {integrity: sha512-x}
    requiresBuild: true
  /@types/node@20.1.0(peer@1.0.0):
    resolution: {integrity: sha512-y}
  github.com/me/lib/abc123:
    resolution: {tarball: https://codeload.github.com/me/lib/tar.gz/abc123}
    name: lib
    version: 1.2.0
  /old/1.0.0:
    resolution: {integrity: sha512-z}
`, []string{
			"@types/node@20.1.0 6 registry ",
			"esbuild@0.19.0 3 registry  script",
			"lib@1.2.0 8 tarball codeload.github.com",
			"old@1.0.0 12 registry ",
		}},
		{"pnpm-lock.yaml", `lockfileVersion: '9.0'
packages:
  lodash@4.17.21:
    resolution: {integrity: sha512-v2kDEe57}
  private@1.0.0:
    resolution: {type: git, repo: 'https://git.corp.example/private.git', commit: abc}
`, []string{
			"lodash@4.17.21 3 registry ",
			"private@1.0.0 5 git git.corp.example",
		}},
		{"uv.lock", `version = 1
requires-python = ">=3.11"

[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }

[[package]]
name = "Requests"
version = "2.31.0"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files.pythonhosted.org/requests-2.31.0.tar.gz", hash = "sha256:1" }
wheels = [{ url = "https://files.pythonhosted.org/requests-2.31.0-py3-none-any.whl", hash = "sha256:2" }]

[[package]]
name = "legacy"
version = "1.0"
source = { registry = "https://pypi.corp.example/simple" }
sdist = { url = "https://pypi.corp.example/legacy-1.0.tar.gz", hash = "sha256:3" }

[[package]]
name = "fork"
version = "2.0"
source = { git = "https://github.com/me/fork?rev=main#abc" }
`, []string{
			"app@0.1.0 5 path ",
			"fork@2.0 23 git github.com script",
			"legacy@1.0 17 registry pypi.corp.example script",
			"requests@2.31.0 10 registry pypi.org",
		}},
		{"package-lock.json", `{
  "lockfileVersion": 1,
  "dependencies": {
    "a": {
      "version": "1.0.0",
      "resolved": "https://registry.npmjs.org/a/-/a-1.0.0.tgz",
      "dependencies": {
        "b": {
          "version": "2.0.0",
          "resolved": "file:../b"
        }
      }
    }
  }
}`, []string{
			"a@1.0.0 4 registry registry.npmjs.org",
			"b@2.0.0 8 path ",
		}},
		{"dev-requirements.txt", `-i https://pypi.corp.example/simple
-r base.txt
pytest==8.0.0  # test runner
Black[jupyter]==24.1.0 ; python_version >= "3.8"
-e git+https://github.com/me/tool.git#egg=tool
./vendored/pkg
wheelpkg @ https://x.example/wheelpkg-1.0-py3-none-any.whl
`, []string{
			"@ 6 path ",
			"black@24.1.0 4 registry pypi.corp.example",
			"pytest@8.0.0 3 registry pypi.corp.example",
			"tool@ 5 git github.com script",
			"wheelpkg@ 7 tarball x.example",
		}},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d-%s", i, tt.file), func(t *testing.T) {
			ix, err := indexLockfile(tt.file, []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, entries(ix)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFindFallback: a package the parser did not index is placed by name.
func TestFindFallback(t *testing.T) {
	ix, _ := indexLockfile("Gemfile.lock", []byte("GEM\n  remote: https://rubygems.org/\n  specs:\n    rack (3.0.8)\n    rack-test (2.1.0)\n"))
	for name, want := range map[string]int{"rack": 4, "rack-test": 5, "absent": 1} {
		if got := ix.find(name, "1.0").line; got != want {
			t.Errorf("%s: line %d, want %d", name, got, want)
		}
	}
}

func TestNPMSource(t *testing.T) {
	tests := map[string][2]string{
		"": {srcRegistry, ""},
		"https://registry.npmjs.org/a/-/a-1.0.0.tgz":         {srcRegistry, "registry.npmjs.org"},
		"https://npm.pkg.github.com/download/@o/a/1.0.0/abc": {srcTarball, "npm.pkg.github.com"},
		"https://codeload.github.com/u/r/tar.gz/abc":         {srcTarball, "codeload.github.com"},
		"git+ssh://git@github.com/u/r.git#abc":               {srcGit, "github.com"},
		"git@gitlab.com:u/r.git":                             {srcGit, "gitlab.com"},
		"github:u/r#abc":                                     {srcGit, "github.com"},
		"https://github.com/u/r.git":                         {srcGit, "github.com"},
		"file:../lib":                                        {srcPath, ""},
		"packages/lib":                                       {srcPath, ""},
	}
	for in, want := range tests {
		s, h := npmSource(in, false)
		if s != want[0] || h != want[1] {
			t.Errorf("npmSource(%q) = %s %s, want %v", in, s, h, want)
		}
	}
}

func TestRangeKind(t *testing.T) {
	tests := []struct {
		eco, spec         string
		exact             bool
		pinned, unbounded bool
	}{
		{ecoNPM, "4.17.21", false, true, false},
		{ecoNPM, "=4.17.21", false, true, false},
		{ecoNPM, "^4.17.21", false, false, false},
		{ecoNPM, "*", false, false, true},
		{ecoNPM, "latest", false, false, true},
		{ecoNPM, ">=1.0.0", false, false, true},
		{ecoNPM, ">=1.0.0 <2", false, false, false},
		{ecoNPM, "1.x || >=2.5.0", false, false, false},
		{ecoPyPI, "==2.31.0", false, true, false},
		{ecoPyPI, "==2.*", false, false, false},
		{ecoPyPI, ">=2", false, false, true},
		{ecoPyPI, ">=2,<3", false, false, false},
		{ecoPyPI, "~=2.31", false, false, false},
		{ecoPyPI, "", false, false, true},
		{ecoPyPI, "4.2.3", true, true, false},
		{ecoPyPI, "^4.2", true, false, false},
		{ecoCargo, "=1.0.100", false, true, false},
		{ecoCargo, "1.0.100", false, false, false},
		{ecoCargo, "*", false, false, true},
		{ecoGem, "7.1.0", true, true, false},
		{ecoGem, "~> 7.1", true, false, false},
		{ecoGem, ">= 7", true, false, true},
	}
	for _, tt := range tests {
		p, u, _ := rangeKind(tt.eco, decl{spec: tt.spec, exact: tt.exact})
		if p != tt.pinned || u != tt.unbounded {
			t.Errorf("%s %q: pinned=%v unbounded=%v, want %v %v", tt.eco, tt.spec, p, u, tt.pinned, tt.unbounded)
		}
	}
	for _, spec := range []string{"git+https://x/y.git", "file:../x", "npm:other@1", "user/repo", "workspace:*"} {
		if _, _, skip := rangeKind(ecoNPM, decl{spec: spec}); !skip {
			t.Errorf("%q is not a range and must be skipped", spec)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		eco, a, b string
		want      int
	}{
		{ecoNPM, "1.2.10", "1.2.9", 1},
		{ecoNPM, "1.0.0-alpha", "1.0.0", -1},
		{ecoGo, "v0.3.7", "v0.3.8", -1},
		{ecoGo, "v0.0.0-20230101000000-abcdefabcdef", "v0.1.0", -1},
		{ecoPyPI, "2.0.0rc1", "2.0.0", -1},
		{ecoPyPI, "1.0.post1", "1.0", 1},
		{ecoCargo, "1.0.200", "1.0.100", 1},
		{ecoGem, "1.0.0.pre", "1.0.0", -1},
		{ecoNPM, "not-a-version", "also-not", 1},
	}
	for _, tt := range tests {
		if got := compareVersions(tt.eco, tt.a, tt.b); got != tt.want {
			t.Errorf("%s %s vs %s = %d, want %d", tt.eco, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestManifestDecls(t *testing.T) {
	tests := []struct {
		file, text string
		want       map[string]decl
	}{
		{"Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\nhelper = { git = \"https://g/h\" }\n\n[dependencies.tokio]\nversion = \"=1.0.0\"\n\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n",
			map[string]decl{
				"dependencies\x00serde":          {spec: "1", line: 5},
				"dependencies\x00helper":         {spec: "git:https://g/h", line: 6},
				"dependencies\x00tokio":          {spec: "=1.0.0", line: 8},
				"cfg(unix).dependencies\x00libc": {spec: "0.2", line: 12},
			}},
		{"pyproject.toml", "[project]\nname = \"x\"\ndependencies = [\n  \"requests>=2\",\n  \"Django==4.2.3\",\n]\n",
			map[string]decl{
				"project\x00requests": {spec: ">=2", line: 4, bareOK: true},
				"project\x00django":   {spec: "==4.2.3", line: 5, bareOK: true},
			}},
		{"Gemfile", "source \"https://rubygems.org\"\ngem \"rails\", \"~> 7.1\"\ngem 'puma'\ngem \"pg\", \">= 1.1\", \"< 2.0\", require: false\n",
			map[string]decl{
				"\x00rails": {spec: "~> 7.1", line: 2, exact: true, bareOK: true},
				"\x00puma":  {spec: "", line: 3, exact: true, bareOK: true},
				"\x00pg":    {spec: ">= 1.1,< 2.0", line: 4, exact: true, bareOK: true},
			}},
	}
	for _, tt := range tests {
		got := parseManifest(tt.file, []byte(tt.text))
		if diff := cmp.Diff(tt.want, map[string]decl(got), cmp.AllowUnexported(decl{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
	}
}

// FuzzIndexLockfile: no lockfile, however malformed, panics a parser; a
// parsed one places every entry on a line of the file.
func FuzzIndexLockfile(f *testing.F) {
	names := []string{"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "go.mod", "poetry.lock", "uv.lock", "Cargo.lock", "requirements.txt", "package.json", "Cargo.toml", "pyproject.toml", "Gemfile", "pdm.lock", "Pipfile.lock", "composer.lock"}
	for i, s := range []string{
		`{"packages":{"node_modules/a":{"version":"1.0.0","hasInstallScript":true}}}`,
		"a@^1:\n  version \"1.0.0\"\n",
		"packages:\n  /a@1.0.0:\n    resolution: {integrity: x}\n",
		"module x\nrequire a.b/c v1.0.0\n",
		"[[package]]\nname = \"a\"\nversion = \"1\"\n",
		"[[package]]\nname = \"a\"\nversion = \"1\"\nsource = { git = \"https://x\" }\n",
		"[[package]]\nname = \"a\"\nversion = \"1\"\nsource = \"git+https://x#y\"\n",
		"a==1\n-e git+https://x#egg=b\n",
		`{"dependencies":{"a":"^1"}}`,
		"[dependencies]\na = \"1\"\n",
		"[project]\ndependencies = [\"a>=1\"]\n",
		"gem \"a\", \"1.0\"\n",
		"[[package]]\nname = \"a\"\nversion = \"1\"\ngit = \"https://x\"\n",
		`{"_meta":{"sources":[{"name":"p","url":"https://x"}]},"default":{"a":{"version":"==1","index":"p"}},"develop":{"b":{"git":"https://y"}}}`,
		`{"packages":[{"name":"a/b","version":"1","type":"composer-plugin"}],"packages-dev":[{"name":"c/d","version":"2","dist":{"type":"path"}}]}`,
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		parseManifest(name, data)
		ix, err := indexLockfile(name, data)
		if err != nil {
			if ix != nil {
				t.Fatal("index and error both returned")
			}
			return
		}
		lines := len(textpos.New(data))
		ix.materializeAll()
		for k, e := range ix.byKey {
			if e.line < 1 || e.line > lines {
				t.Fatalf("%s: %s at line %d of %d", name, k, e.line, lines)
			}
		}
		for _, o := range ix.own {
			if o.e.line < 1 || o.e.line > lines {
				t.Fatalf("%s: %s at line %d of %d", name, o.name, o.e.line, lines)
			}
		}
	})
}

// TestPackageLockFastPath: the structural scan with lazy decoding indexes
// exactly what the decoder does, escapes, aliases, links and workspaces
// included.
func TestPackageLockFastPath(t *testing.T) {
	texts := []string{
		readFixture(t, "npm/base/package-lock.json"),
		readFixture(t, "npm/head/package-lock.json"),
		`{"lockfileVersion": 2, "packages": {"": {"name": "x"},
  "node_modules/\u0061lias": {"name": "real-pkg", "version": "1.0.0", "resolved": "https://r.example/real-pkg/-/real-pkg-1.0.0.tgz", "dependencies": {"a": "^1"}},
  "node_modules/q": {"version": "2.0.0", "resolved": "https://r.example/q/-/q \"quoted\"-2.0.0.tgz", "bin": {"q": "cli.js"}, "engines": ["node >= 8"], "optional": true},
  "packages/ws": {"version": "0.0.1"},
  "node_modules/ws": {"resolved": "packages/ws", "link": true}},
 "dependencies": {"real-pkg": {"version": "1.0.0"}}}`,
	}
	for i, text := range texts {
		fast, ok := indexPackageLockFast([]byte(text))
		if !ok {
			t.Fatalf("%d: fast path refused", i)
		}
		slow, err := decodePackageLock([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(entries(slow), entries(fast)); diff != "" {
			t.Errorf("%d: (-decoder +fast):\n%s", i, diff)
		}
	}
	if _, ok := indexPackageLockFast([]byte(`{"lockfileVersion": 1, "dependencies": {}}`)); ok {
		t.Error("v1 lockfile taken by the fast path")
	}
}
