package deps

import (
	"bytes"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
	"path"
	"strings"
)

// Source kinds a package can come from.
const (
	srcRegistry = "registry"
	srcGit      = "git"
	srcTarball  = "tarball"
	srcPath     = "path"
)

// entry is what a lockfile's own text says about one package entry, beyond
// what syft reports: syft's file.Location carries no line (anchore/syft#1208)
// and its metadata has no install-script flag, so every lockfile is also
// read here, with its format's parser, to place and qualify each entry.
type entry struct {
	line          int
	installScript bool
	source        string // registry | git | tarball | path ("" = registry)
	host          string
}

// lockIndex maps the packages of one lockfile to their entries.
type lockIndex struct {
	byKey  map[string]entry // name@version
	byName map[string]entry // first entry seen for a name
	lines  textpos.Lines
	text   []byte
	fold   func(string) string // name normalization (PEP 503 for Python)
	// own lists the packages of the formats read here rather than by syft
	// (own.go): Go, Python, Rust and PHP. For requirements files it also
	// holds what syft would skip — unpinned and direct-URL requirements
	// (git+https://…, an sdist URL), which are the ones to look at.
	own []ownEntry
	// reduce, when set, rewrites the file to some of its entries (reduce.go).
	reduce *reducer
	// lazy decodes entries on demand; pending is true until it ran
	// (package-lock fast path, npmfast.go).
	lazy    func([]block)
	pending bool
}

// materialize decodes the entries a lazy index needs: the kept blocks after
// reduction, or all of them.
func (ix *lockIndex) materialize(bs []block) {
	if ix.pending {
		ix.pending = false
		ix.lazy(bs)
	}
}

func (ix *lockIndex) materializeAll() {
	if ix.pending {
		ix.materialize(ix.reduce.blocks)
	}
}

type ownEntry struct {
	eco, name, version string
	e                  entry
}

func newLockIndex(text []byte) *lockIndex {
	return &lockIndex{byKey: map[string]entry{}, byName: map[string]entry{}, lines: textpos.New(text), text: text}
}

// addOwn places a package and lists it as one of the file's packages.
func (ix *lockIndex) addOwn(eco, name, version string, e entry) {
	ix.add(name, version, e)
	if eco == ecoPyPI {
		name = pep503(name) // as syft and PyPI name it
	}
	if e.source == "" {
		e.source = srcRegistry
	}
	ix.own = append(ix.own, ownEntry{eco: eco, name: name, version: version, e: e})
}

func (ix *lockIndex) add(name, version string, e entry) {
	if ix.fold != nil {
		name = ix.fold(name)
	}
	if e.source == "" {
		e.source = srcRegistry
	}
	k := name + "@" + version
	if _, ok := ix.byKey[k]; !ok {
		ix.byKey[k] = e
	}
	if _, ok := ix.byName[name]; !ok {
		ix.byName[name] = e
	}
}

// find returns the entry of name@version, falling back to the name alone,
// then to the first line that mentions the name: a finding must always
// point somewhere in the file.
func (ix *lockIndex) find(name, version string) entry {
	ix.materializeAll()
	n := name
	if ix.fold != nil {
		n = ix.fold(name)
	}
	for _, v := range []string{version, strings.TrimPrefix(version, "v"), "v" + version} {
		if e, ok := ix.byKey[n+"@"+v]; ok {
			return e
		}
	}
	if e, ok := ix.byName[n]; ok {
		return e
	}
	return entry{line: ix.search(name), source: srcRegistry}
}

// search finds the first line naming the package: quoted (JSON, TOML,
// YAML) first, then as a bare word (Gemfile.lock "    rack (3.0.8)").
func (ix *lockIndex) search(name string) int {
	if name == "" {
		return 1
	}
	if i := bytes.Index(ix.text, []byte(`"`+name+`"`)); i >= 0 {
		return ix.lines.Line(i)
	}
	for off := 0; off < len(ix.text); {
		i := bytes.Index(ix.text[off:], []byte(name))
		if i < 0 {
			break
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isNameByte(ix.text[i-1])) && (end >= len(ix.text) || !isNameByte(ix.text[end])) {
			return ix.lines.Line(i)
		}
		off = end
	}
	return 1
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b == '.' || b == '/' || b == '@' ||
		(b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// lockParsers maps a lockfile's base name to the function indexing it. A
// file without one (Gemfile.lock, bun.lock) is placed by search.
var lockParsers = map[string]func([]byte) (*lockIndex, error){
	"package-lock.json":   indexPackageLock,
	"npm-shrinkwrap.json": indexPackageLock,
	"yarn.lock":           indexYarnLock,
	"pnpm-lock.yaml":      indexPnpmLock,
	"go.mod":              indexGoMod,
	"poetry.lock":         indexPoetryLock,
	"uv.lock":             indexUvLock,
	"Cargo.lock":          indexCargoLock,
	"pdm.lock":            indexPdmLock,
	"Pipfile.lock":        indexPipfileLock,
	"composer.lock":       indexComposerLock,
}

// indexLockfile indexes one cataloged file; a malformed file returns a
// *parseError with the line where the parser stopped.
func indexLockfile(p string, text []byte) (*lockIndex, error) {
	base := path.Base(p)
	if isRequirements(base) {
		return indexRequirements(text)
	}
	if f, ok := lockParsers[base]; ok {
		return f(text)
	}
	return newLockIndex(text), nil
}
