package deps

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
	"golang.org/x/mod/modfile"
)

// decl is one declared dependency: its requirement as written and its line.
type decl struct {
	spec string
	line int
	// exact marks a bare version that means "exactly" (Poetry, Gemfile)
	// where npm or Cargo would read a range.
	exact bool
	// bareOK marks formats where a requirement without a version is the
	// norm because a lockfile pins it (Gemfile, pyproject.toml lists).
	bareOK bool
}

// decls maps "section\x00name" to a declaration.
type decls map[string]decl

func declName(k string) string {
	_, n, _ := strings.Cut(k, "\x00")
	return n
}

// parseManifest reads the dependency declarations of a manifest. It returns
// nil for a file it does not know or cannot parse: the lockfile parsers
// report malformed files; here a broken manifest only means no signal.
func parseManifest(p string, text []byte) decls {
	base := path.Base(p)
	switch {
	case base == "package.json":
		return jsonDecls(text, "dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
	case base == "composer.json":
		return jsonDecls(text, "require", "require-dev")
	case base == "go.mod":
		f, err := modfile.Parse(p, text, nil)
		if err != nil {
			return nil
		}
		d := decls{}
		for _, r := range f.Require {
			d["\x00"+r.Mod.Path] = decl{spec: r.Mod.Version, line: r.Syntax.Start.Line, exact: true}
		}
		return d
	case isRequirements(base):
		reqs, _, _ := parseRequirements(text)
		d := decls{}
		for _, r := range reqs {
			spec := r.spec
			if r.url != "" {
				spec = "@" + r.url
			}
			d["\x00"+pep503(r.name)] = decl{spec: spec, line: r.line}
		}
		return d
	case base == "Gemfile":
		return gemfileDecls(text)
	case base == "Cargo.toml", base == "pyproject.toml", base == "Pipfile":
		return tomlDecls(base, text)
	}
	return nil
}

// jsonDecls reads name -> requirement maps of a JSON manifest, each key's
// line taken from the streaming decoder's offset.
func jsonDecls(text []byte, sections ...string) decls {
	li := textpos.New(text)
	dec := json.NewDecoder(bytes.NewReader(text))
	if expectDelim(dec, '{') != nil {
		return nil
	}
	d := decls{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		sec, _ := tok.(string)
		if !contains(sections, sec) {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if expectDelim(dec, '{') != nil {
			return nil
		}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil
			}
			name, _ := kt.(string)
			line := li.Line(int(dec.InputOffset()) - 1)
			var spec any
			if dec.Decode(&spec) != nil {
				return nil
			}
			s, _ := spec.(string)
			d[sec+"\x00"+name] = decl{spec: strings.TrimSpace(s), line: line}
		}
		if _, err := dec.Token(); err != nil {
			return nil
		}
	}
	return d
}

// gemfileDecls reads `gem "name", "~> 1.2"` lines: a Gemfile is Ruby, and
// only its gem calls matter here.
func gemfileDecls(text []byte) decls {
	d := decls{}
	for i, l := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "gem ") && !strings.HasPrefix(t, "gem(") {
			continue
		}
		var args []string
		for _, a := range strings.Split(t[4:], ",") {
			a = strings.TrimSpace(strings.Trim(strings.TrimSpace(a), "()"))
			if len(a) >= 2 && (a[0] == '"' || a[0] == '\'') {
				args = append(args, strings.Trim(a, `"'`))
			} else {
				break // options (require: false, git: …) follow the versions
			}
		}
		if len(args) == 0 {
			continue
		}
		d["\x00"+args[0]] = decl{spec: strings.Join(args[1:], ","), line: i + 1, exact: true, bareOK: true}
	}
	return d
}

// tomlDecls reads Cargo.toml, pyproject.toml (PEP 621, PEP 735 and Poetry)
// and Pipfile. BurntSushi/toml keeps no positions; a key's line is found by
// keyLine, which looks for the key or quoted requirement at a line start.
func tomlDecls(base string, text []byte) decls {
	var doc map[string]any
	if _, err := toml.Decode(string(text), &doc); err != nil {
		return nil
	}
	d := decls{}
	table := func(sec string, m any, exactBare bool) {
		t, _ := m.(map[string]any)
		for name, v := range t {
			spec := ""
			switch x := v.(type) {
			case string:
				spec = x
			case map[string]any:
				if s, ok := x["version"].(string); ok {
					spec = s
				} else if g, ok := x["git"].(string); ok {
					spec = "git:" + g
				} else if p, ok := x["path"].(string); ok {
					spec = "path:" + p
				} else if _, ok := x["workspace"]; ok {
					spec = "workspace"
				}
			}
			if name == "python" && base == "pyproject.toml" {
				continue
			}
			d[sec+"\x00"+name] = decl{spec: strings.TrimSpace(spec), line: keyLine(text, name), exact: exactBare}
		}
	}
	list := func(sec string, m any) {
		l, _ := m.([]any)
		for _, v := range l {
			s, _ := v.(string)
			r := parseReq(s)
			if r.name == "" {
				continue
			}
			spec := r.spec
			if r.url != "" {
				spec = "@" + r.url
			}
			d[sec+"\x00"+pep503(r.name)] = decl{spec: spec, line: keyLine(text, r.name), bareOK: true}
		}
	}
	get := func(m any, keys ...string) any {
		for _, k := range keys {
			t, _ := m.(map[string]any)
			m = t[k]
		}
		return m
	}
	switch base {
	case "Cargo.toml":
		for _, s := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
			table(s, doc[s], false)
		}
		table("workspace", get(doc, "workspace", "dependencies"), false)
		if targets, ok := doc["target"].(map[string]any); ok {
			for t, v := range targets {
				for _, s := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
					table(t+"."+s, get(v, s), false)
				}
			}
		}
	case "Pipfile":
		table("packages", doc["packages"], false)
		table("dev-packages", doc["dev-packages"], false)
	case "pyproject.toml":
		list("project", get(doc, "project", "dependencies"))
		if opt, ok := get(doc, "project", "optional-dependencies").(map[string]any); ok {
			for g, v := range opt {
				list("extra."+g, v)
			}
		}
		if groups, ok := doc["dependency-groups"].(map[string]any); ok {
			for g, v := range groups {
				list("group."+g, v)
			}
		}
		table("poetry", get(doc, "tool", "poetry", "dependencies"), true)
		table("poetry-dev", get(doc, "tool", "poetry", "dev-dependencies"), true)
		if groups, ok := get(doc, "tool", "poetry", "group").(map[string]any); ok {
			for g, v := range groups {
				table("poetry."+g, get(v, "dependencies"), true)
			}
		}
	}
	return d
}

// keyLine finds the first line declaring name: `name = …`, `name.workspace
// = …`, a `[….name]` table header or a quoted requirement starting with name.
func keyLine(text []byte, name string) int {
	for i, l := range strings.Split(string(text), "\n") {
		t := strings.TrimSpace(l)
		for _, q := range []string{name, `"` + name + `"`, `'` + name + `'`} {
			if rest, ok := strings.CutPrefix(t, q); ok {
				rest = strings.TrimSpace(rest)
				if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ".") {
					return i + 1
				}
			}
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "."+name+"]") {
			return i + 1
		}
		for _, q := range []string{`"`, `'`} {
			if j := strings.Index(t, q+name); j >= 0 {
				end := j + 1 + len(name)
				if end >= len(t) || !isNameByte(t[end]) || t[end] == '[' {
					return i + 1
				}
			}
		}
	}
	return 1
}
