package deps

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// The lockfiles of Go, Python, Rust and PHP are read here, not by syft:
// syft's catalogers for those ecosystems import syft/internal/file, which
// links hashicorp/go-getter and with it the AWS S3, Google Cloud Storage,
// gRPC and xDS clients: they made the binary 113 MB instead of 52, and
// cost 33 MB of resident memory and 14 ms of start-up on every run, for
// downloads an offline lockfile diff never makes. The formats are small and fixed; each reader
// lists what syft's cataloger lists (TestOwnMatchesSyft runs syft's
// catalogers beside them), plus the development sections syft leaves out
// of Pipfile.lock and composer.lock (those install, and run, too) and a
// go.mod requirement of which only another version is excluded.
// npm, yarn, pnpm, bun and Ruby lockfiles are still cataloged by syft.

// indexPdmLock reads pdm.lock: [[package]] tables like poetry.lock's, one
// per name, version and set of extras (listed once).
func indexPdmLock(text []byte) (*lockIndex, error) {
	var lock struct {
		Package []struct {
			Name, Version  string
			Git, URL, Path string
			Files          []struct{ File string }
			Editable       bool
		}
	}
	if _, err := toml.Decode(string(text), &lock); err != nil {
		return nil, tomlErr("pdm.lock", err)
	}
	ix := newLockIndex(text)
	ix.fold = pep503
	lines := packageLines(text)
	seen := map[string]bool{}
	for i, p := range lock.Package {
		if k := pep503(p.Name) + "@" + p.Version; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		e := entry{line: lineAt(lines, i), source: srcRegistry, host: pypiHost}
		var names []string
		for _, f := range p.Files {
			names = append(names, f.File)
		}
		e.installScript = sdistOnly(names)
		pyOrigin(&e, p.Git, p.URL, p.Path != "" || p.Editable)
		ix.addOwn(ecoPyPI, p.Name, p.Version, e)
	}
	return ix, nil
}

// indexPipfileLock reads Pipfile.lock: "default" and "develop" map names to
// {version: "==X", index, git, path, file}.
func indexPipfileLock(text []byte) (*lockIndex, error) {
	type pin struct {
		Version, Index, Git, Path, File string
		Editable                        bool
	}
	var lock struct {
		Meta struct {
			Sources []struct{ Name, URL string }
		} `json:"_meta"`
		Default map[string]pin
		Develop map[string]pin
	}
	ix := newLockIndex(text)
	ix.fold = pep503
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&lock); err != nil {
		return nil, jsonErr(ix, dec, err)
	}
	index := map[string]string{}
	for _, s := range lock.Meta.Sources {
		index[s.Name] = urlHost(s.URL)
	}
	for _, sec := range []struct {
		key  string
		pins map[string]pin
	}{{"default", lock.Default}, {"develop", lock.Develop}} {
		start := bytes.Index(text, []byte(`"`+sec.key+`"`))
		for _, name := range sortedKeys(sec.pins) {
			p := sec.pins[name]
			e := entry{line: lineAfter(ix, start, `"`+name+`"`), source: srcRegistry, host: pypiHost}
			if h, ok := index[p.Index]; ok && p.Index != "" {
				e.host = h
			}
			pyOrigin(&e, p.Git, p.File, p.Path != "" || p.Editable)
			ix.addOwn(ecoPyPI, name, strings.TrimPrefix(p.Version, "=="), e)
		}
	}
	return ix, nil
}

// pyOrigin marks a Python lock entry that does not come from an index: a
// VCS checkout or an sdist URL builds (runs code) on install; a local path is
// outside any registry.
func pyOrigin(e *entry, git, url string, local bool) {
	switch {
	case git != "":
		e.source, e.host, e.installScript = srcGit, urlHost(git), true
	case url != "":
		e.source, e.host, e.installScript = pySource(url)
	case local:
		e.source, e.host = srcPath, ""
	}
}

// indexComposerLock reads composer.lock: "packages" and "packages-dev".
// A composer plugin runs its code during every install.
func indexComposerLock(text []byte) (*lockIndex, error) {
	type pkg struct {
		Name, Version, Type string
		Source              struct{ Type, URL string }
		Dist                struct{ Type, URL string }
		Notification        string `json:"notification-url"`
	}
	var lock struct {
		Packages    []pkg
		PackagesDev []pkg `json:"packages-dev"`
	}
	ix := newLockIndex(text)
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&lock); err != nil {
		return nil, jsonErr(ix, dec, err)
	}
	for _, p := range append(lock.Packages, lock.PackagesDev...) {
		// The package's own "name" member, not an earlier package's
		// "require" naming it (composer writes `"name": "vendor/pkg"`).
		line := lineAfter(ix, 0, `"name": "`+p.Name+`"`)
		if line == 1 {
			line = lineAfter(ix, 0, `"`+p.Name+`"`)
		}
		e := entry{line: line, source: srcRegistry, installScript: p.Type == "composer-plugin"}
		switch {
		case p.Dist.Type == "path":
			e.source = srcPath
		case p.Dist.URL == "" && p.Source.Type == "git":
			e.source, e.host = srcGit, urlHost(p.Source.URL)
		case p.Notification != "":
			e.host = urlHost(p.Notification) // the repository the package came from
		default:
			e.host = urlHost(p.Dist.URL)
		}
		ix.addOwn(ecoComposer, p.Name, p.Version, e)
	}
	return ix, nil
}

// lineAfter is the line of the first occurrence of quoted at or after off
// (a name as a JSON key or value), or 1.
func lineAfter(ix *lockIndex, off int, quoted string) int {
	off = max(off, 0)
	if i := bytes.Index(ix.text[off:], []byte(quoted)); i >= 0 {
		return ix.lines.Line(off + i)
	}
	return 1
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
