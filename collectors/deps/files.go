package deps

import (
	"path"
	"strings"
)

// Ecosystems, named by their package-URL type (what syft reports).
const (
	ecoNPM      = "npm"
	ecoGo       = "golang"
	ecoPyPI     = "pypi"
	ecoCargo    = "cargo"
	ecoGem      = "gem"
	ecoComposer = "composer"
)

// fileKind says what a dependency file is to the scan.
type fileKind struct {
	eco      string
	lockfile bool // pins what installs; its removal is a signal
	manifest bool // declares requirements (ranges, lockfile freshness)
	catalog  bool // lists packages (by syft, or read here: own.go)
}

// bySyft are the ecosystems whose lockfiles syft catalogs; the others are
// read by this package (own.go explains why).
func bySyft(eco string) bool { return eco == ecoNPM || eco == ecoGem }

// known lists the dependency files the scan reads, by base name.
var known = map[string]fileKind{
	"package.json":        {eco: ecoNPM, manifest: true},
	"package-lock.json":   {eco: ecoNPM, lockfile: true, catalog: true},
	"npm-shrinkwrap.json": {eco: ecoNPM, lockfile: true, catalog: true},
	"yarn.lock":           {eco: ecoNPM, lockfile: true, catalog: true},
	"pnpm-lock.yaml":      {eco: ecoNPM, lockfile: true, catalog: true},
	"bun.lock":            {eco: ecoNPM, lockfile: true, catalog: true},
	"go.mod":              {eco: ecoGo, manifest: true, catalog: true},
	"go.sum":              {eco: ecoGo, lockfile: true},
	"pyproject.toml":      {eco: ecoPyPI, manifest: true},
	"Pipfile":             {eco: ecoPyPI, manifest: true},
	"poetry.lock":         {eco: ecoPyPI, lockfile: true, catalog: true},
	"uv.lock":             {eco: ecoPyPI, lockfile: true, catalog: true},
	"pdm.lock":            {eco: ecoPyPI, lockfile: true, catalog: true},
	"Pipfile.lock":        {eco: ecoPyPI, lockfile: true, catalog: true},
	"Cargo.toml":          {eco: ecoCargo, manifest: true},
	"Cargo.lock":          {eco: ecoCargo, lockfile: true, catalog: true},
	"Gemfile":             {eco: ecoGem, manifest: true},
	"Gemfile.lock":        {eco: ecoGem, lockfile: true, catalog: true},
	"composer.json":       {eco: ecoComposer, manifest: true},
	"composer.lock":       {eco: ecoComposer, lockfile: true, catalog: true},
}

// lockfilesFor lists, in preference order, the lockfiles that pin a
// manifest's requirements, and whether they may sit in a parent folder
// (npm, Cargo and uv workspaces keep one lockfile at the root).
var lockfilesFor = map[string]struct {
	names    []string
	ancestor bool
}{
	"package.json":   {[]string{"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"}, true},
	"go.mod":         {[]string{"go.sum"}, false},
	"pyproject.toml": {[]string{"poetry.lock", "uv.lock", "pdm.lock"}, true},
	"Pipfile":        {[]string{"Pipfile.lock"}, false},
	"Cargo.toml":     {[]string{"Cargo.lock"}, true},
	"Gemfile":        {[]string{"Gemfile.lock"}, false},
	"composer.json":  {[]string{"composer.lock"}, false},
}

// skipDirs hold installed or vendored copies, not the project's declarations.
var skipDirs = []string{"node_modules", "vendor", ".venv", "venv", "site-packages", "bower_components", ".git"}

// kindOf classifies a slash-separated path; ok is false for other files.
func kindOf(p string) (fileKind, bool) {
	for _, d := range strings.Split(path.Dir(p), "/") {
		for _, s := range skipDirs {
			if d == s {
				return fileKind{}, false
			}
		}
	}
	base := path.Base(p)
	if k, ok := known[base]; ok {
		return k, true
	}
	if isRequirements(base) {
		return fileKind{eco: ecoPyPI, manifest: true, catalog: true}, true
	}
	return fileKind{}, false
}

// siblings lists the dependency files of eco that may sit in dir: a
// cataloger needs them to read a changed file (go.sum beside go.mod,
// package.json beside its lockfile), even when they did not change.
func siblings(dir, eco string) []string {
	var out []string
	for name, k := range known {
		if k.eco == eco {
			out = append(out, path.Join(dir, name))
		}
	}
	return out
}

// lockCandidates lists where a manifest's lockfile may be, nearest first.
func lockCandidates(manifest string) []string {
	lf, ok := lockfilesFor[path.Base(manifest)]
	if !ok {
		return nil
	}
	var out []string
	for dir := path.Dir(manifest); ; dir = path.Dir(dir) {
		for _, n := range lf.names {
			out = append(out, path.Join(dir, n))
		}
		if !lf.ancestor || dir == "." || dir == "/" {
			return out
		}
	}
}
