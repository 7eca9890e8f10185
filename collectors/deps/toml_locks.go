package deps

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
)

// indexGoMod reads go.mod (modfile.Parse: ParseLax drops replace
// directives). Its packages are what syft's go.mod cataloger reports: each
// requirement; a replacement by another module stands in for the module it
// replaces, one by a local directory keeps the module's path (a path
// source: code from outside any registry); a requirement of an excluded
// version is dropped.
func indexGoMod(text []byte) (*lockIndex, error) {
	ix := newLockIndex(text)
	f, err := modfile.Parse("go.mod", text, nil)
	if err != nil {
		return nil, goModErr(err)
	}
	type mod struct {
		version string
		e       entry
	}
	mods := map[string]mod{}
	var order []string
	put := func(p string, m mod) {
		if _, ok := mods[p]; !ok {
			order = append(order, p)
		}
		mods[p] = m
	}
	for _, r := range f.Require {
		put(r.Mod.Path, mod{r.Mod.Version, entry{line: r.Syntax.Start.Line}})
	}
	for _, r := range f.Replace {
		e := entry{line: r.Syntax.Start.Line}
		if strings.HasPrefix(r.New.Path, ".") || strings.HasPrefix(r.New.Path, "/") {
			e.source = srcPath
			put(r.Old.Path, mod{r.New.Version, e})
			continue
		}
		delete(mods, r.Old.Path)
		put(r.New.Path, mod{r.New.Version, e})
	}
	// syft drops an excluded module whatever its version; only the version
	// named is excluded, and a change that adds "exclude m v0.0.1" while
	// requiring a new m must still show the new m.
	for _, x := range f.Exclude {
		if m, ok := mods[x.Mod.Path]; ok && m.version == x.Mod.Version {
			delete(mods, x.Mod.Path)
		}
	}
	for _, p := range order {
		if m, ok := mods[p]; ok {
			ix.addOwn(ecoGo, p, m.version, m.e)
		}
	}
	return ix, nil
}

func goModErr(err error) error {
	var el modfile.ErrorList
	if errors.As(err, &el) && len(el) > 0 {
		return &collectors.ParseError{Line: el[0].Pos.Line, Err: fmt.Errorf("parse go.mod: %w", el[0].Err)}
	}
	return &collectors.ParseError{Err: fmt.Errorf("parse go.mod: %w", err)}
}

// tomlErr places a TOML syntax error.
func tomlErr(file string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &collectors.ParseError{Line: pe.Position.Line, Err: fmt.Errorf("parse %s: %s", file, pe.Message)}
	}
	return &collectors.ParseError{Err: fmt.Errorf("parse %s: %w", file, err)}
}

// packageLines returns the line of each [[package]] table's `name =` key in
// order. BurntSushi/toml keeps no positions, but array-of-tables entries
// decode in file order, so the k-th header found here is the k-th decoded
// package: a scan of headers, not of values.
func packageLines(text []byte) []int {
	var out []int
	li := textpos.New(text)
	inPkg := false
	for i := range li {
		end := len(text)
		if i+1 < len(li) {
			end = li[i+1]
		}
		t := strings.TrimSpace(string(text[li[i]:end]))
		switch {
		case t == "[[package]]":
			inPkg = true
			out = append(out, i+1)
		case inPkg && strings.HasPrefix(t, "name") && strings.HasPrefix(strings.TrimSpace(t[4:]), "="):
			out[len(out)-1] = i + 1
			inPkg = false
		case strings.HasPrefix(t, "["):
			inPkg = false
		}
	}
	return out
}

func lineAt(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 1
}

// pep503 normalizes a Python project name (PEP 503): runs of "-", "_" and
// "." become one "-", letters lower case.
func pep503(n string) string {
	var b strings.Builder
	b.Grow(len(n))
	sep := false
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c == '-' || c == '_' || c == '.' {
			sep = true
			continue
		}
		if sep {
			b.WriteByte('-')
			sep = false
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if sep {
		b.WriteByte('-')
	}
	return b.String()
}

const pypiHost = "pypi.org"

// indexPoetryLock reads poetry.lock. A package published only as an sdist
// runs its build (setup.py or a build backend) on the installing machine.
func indexPoetryLock(text []byte) (*lockIndex, error) {
	var lock struct {
		Package []struct {
			Name    string
			Version string
			Files   []struct{ File string }
			Source  *struct{ Type, URL string }
		}
		Metadata struct {
			Files map[string][]struct{ File string }
		}
	}
	if _, err := toml.Decode(string(text), &lock); err != nil {
		return nil, tomlErr("poetry.lock", err)
	}
	ix := newLockIndex(text)
	ix.fold = pep503
	lines := packageLines(text)
	for i, p := range lock.Package {
		files := p.Files
		if len(files) == 0 { // poetry < 1.5 keeps them under [metadata.files]
			files = lock.Metadata.Files[p.Name]
		}
		e := entry{line: lineAt(lines, i), source: srcRegistry, host: pypiHost}
		var names []string
		for _, f := range files {
			names = append(names, f.File)
		}
		e.installScript = sdistOnly(names)
		if s := p.Source; s != nil {
			switch s.Type {
			case "git":
				e.source, e.host, e.installScript = srcGit, urlHost(s.URL), true
			case "url":
				e.source, e.host, e.installScript = srcTarball, urlHost(s.URL), !strings.HasSuffix(s.URL, ".whl")
			case "file", "directory":
				e.source, e.host = srcPath, ""
			default: // legacy / explicit / supplemental: another index
				e.host = urlHost(s.URL)
			}
		}
		ix.addOwn(ecoPyPI, p.Name, p.Version, e)
	}
	return ix, nil
}

// sdistOnly: files are known and none is a wheel.
func sdistOnly(files []string) bool {
	if len(files) == 0 {
		return false
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".whl") {
			return false
		}
	}
	return true
}

// indexUvLock reads uv.lock.
func indexUvLock(text []byte) (*lockIndex, error) {
	var lock struct {
		Package []struct {
			Name    string
			Version string
			Source  map[string]any
			Sdist   map[string]any
			Wheels  []map[string]any
		}
	}
	if _, err := toml.Decode(string(text), &lock); err != nil {
		return nil, tomlErr("uv.lock", err)
	}
	ix := newLockIndex(text)
	ix.fold = pep503
	lines := packageLines(text)
	for i, p := range lock.Package {
		e := entry{line: lineAt(lines, i), source: srcRegistry}
		str := func(k string) string { s, _ := p.Source[k].(string); return s }
		switch {
		case str("registry") != "":
			e.host = urlHost(str("registry"))
			e.installScript = p.Sdist != nil && len(p.Wheels) == 0
		case str("git") != "":
			e.source, e.host, e.installScript = srcGit, urlHost(str("git")), true
		case str("url") != "":
			e.source, e.host, e.installScript = srcTarball, urlHost(str("url")), !strings.HasSuffix(str("url"), ".whl")
		case str("editable") != "" || str("virtual") != "" || str("path") != "" || str("directory") != "":
			e.source = srcPath // the project itself or a local folder
		}
		ix.addOwn(ecoPyPI, p.Name, p.Version, e)
	}
	return ix, nil
}

// indexCargoLock reads Cargo.lock. A package without a source is a
// workspace member or a path dependency.
func indexCargoLock(text []byte) (*lockIndex, error) {
	var lock struct {
		Package []struct{ Name, Version, Source string }
	}
	if _, err := toml.Decode(string(text), &lock); err != nil {
		return nil, tomlErr("Cargo.lock", err)
	}
	ix := newLockIndex(text)
	lines := packageLines(text)
	for i, p := range lock.Package {
		e := entry{line: lineAt(lines, i)}
		kind, loc, _ := strings.Cut(p.Source, "+")
		switch {
		case p.Source == "":
			e.source = srcPath
		case kind == "git":
			e.source, e.host = srcGit, urlHost(loc)
		default: // registry+ / sparse+
			e.source, e.host = srcRegistry, cargoHost(loc)
		}
		ix.addOwn(ecoCargo, p.Name, p.Version, e)
	}
	return ix, nil
}

// cargoHost names crates.io for both of its index URLs.
func cargoHost(loc string) string {
	switch strings.TrimSuffix(loc, "/") {
	case "https://github.com/rust-lang/crates.io-index", "https://index.crates.io":
		return "crates.io"
	}
	if u, err := url.Parse(loc); err == nil {
		return u.Hostname()
	}
	return ""
}
