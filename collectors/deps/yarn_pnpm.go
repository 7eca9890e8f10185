package deps

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// indexYarnLock reads yarn.lock, both the classic format (not YAML:
// `"a@^1", a@^1.1:` headers with `version "1.2.3"` and `resolved "url"`
// fields) and berry's (YAML-shaped: `version: 1.2.3`, `resolution:
// "a@npm:1.2.3"`), line by line as yarn's own lexer does.
func indexYarnLock(text []byte) (*lockIndex, error) {
	ix := newLockIndex(text)
	var (
		names      []string
		line       int
		version    string
		resolution string
		soft       bool
	)
	entries := 0
	flush := func() {
		if len(names) == 0 {
			return
		}
		entries++
		src, host := npmSource(resolution, soft)
		if i := strings.Index(resolution, "@npm:"); i > 0 { // berry registry resolution
			src, host = srcRegistry, ""
		} else if r := yarnBerryTarget(resolution); r != resolution {
			src, host = npmSource(r, soft)
		}
		for _, n := range names {
			ix.add(n, version, entry{line: line, source: src, host: host})
		}
		names, version, resolution, soft = nil, "", "", false
	}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if raw[0] != ' ' && raw[0] != '\t' {
			flush()
			if !strings.HasSuffix(t, ":") {
				return nil, &collectors.ParseError{Line: n, Err: errors.New("parse yarn.lock: entry header does not end with ':'")}
			}
			if t == "__metadata:" {
				continue
			}
			line = n
			for _, spec := range strings.Split(strings.TrimSuffix(t, ":"), ",") {
				if name := yarnSpecName(strings.Trim(strings.TrimSpace(spec), `"`)); name != "" && !contains(names, name) {
					names = append(names, name)
				}
			}
			continue
		}
		if !strings.HasPrefix(raw, "  ") || strings.HasPrefix(raw, "   ") {
			continue // nested (dependencies of the entry), not the entry's own fields
		}
		k, v := yarnField(t)
		switch k {
		case "version":
			version = v
		case "resolved", "resolution":
			resolution = v
		case "linkType":
			soft = v == "soft"
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &collectors.ParseError{Line: n + 1, Err: fmt.Errorf("read yarn.lock: %w", err)}
	}
	flush()
	ix.reduce = yarnReducer(text, entries)
	return ix, nil
}

// yarnField splits `version "1.2.3"` and `version: 1.2.3`.
func yarnField(t string) (string, string) {
	k, v, ok := strings.Cut(t, " ")
	if !ok {
		return strings.TrimSuffix(t, ":"), ""
	}
	return strings.TrimSuffix(k, ":"), strings.Trim(strings.TrimSpace(v), `"`)
}

// yarnSpecName: "@s/a@^1.0.0" -> "@s/a"; "a@npm:^1" -> "a".
func yarnSpecName(spec string) string {
	if spec == "" {
		return ""
	}
	i := strings.Index(spec[1:], "@")
	if i < 0 {
		return spec
	}
	return spec[:i+1]
}

// yarnBerryTarget strips the "name@" of a berry resolution so the rest
// classifies like a classic resolved URL.
func yarnBerryTarget(r string) string {
	n := yarnSpecName(r)
	if n == "" || n == r || strings.Contains(n, ":") || !strings.HasPrefix(r[len(n):], "@") {
		return r
	}
	return r[len(n)+1:]
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// indexPnpmLock reads pnpm-lock.yaml (lockfile v5 "/a/1.0.0", v6
// "/a@1.0.0(peer@2)", v9 "a@1.0.0") with the YAML node API for lines.
func indexPnpmLock(text []byte) (*lockIndex, error) {
	ix := newLockIndex(text)
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, yamlErr(err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &collectors.ParseError{Line: 1, Err: errors.New("parse pnpm-lock.yaml: not a mapping")}
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "packages" || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		pk := top.Content[i+1]
		for j := 0; j+1 < len(pk.Content); j += 2 {
			name, version := pnpmKey(pk.Content[j].Value)
			var e struct {
				Resolution struct {
					Tarball   string `yaml:"tarball"`
					Type      string `yaml:"type"`
					Repo      string `yaml:"repo"`
					Directory string `yaml:"directory"`
				} `yaml:"resolution"`
				Name          string `yaml:"name"`
				Version       string `yaml:"version"`
				RequiresBuild bool   `yaml:"requiresBuild"`
			}
			if err := pk.Content[j+1].Decode(&e); err != nil {
				return nil, &collectors.ParseError{Line: pk.Content[j+1].Line, Err: fmt.Errorf("parse pnpm-lock.yaml: %w", err)}
			}
			if e.Name != "" {
				name = e.Name
			}
			if e.Version != "" {
				version = e.Version
			}
			en := entry{line: pk.Content[j].Line, installScript: e.RequiresBuild, source: srcRegistry}
			r := e.Resolution
			switch {
			case r.Type == "git" || r.Repo != "":
				en.source, en.host = srcGit, urlHost(r.Repo)
			case r.Directory != "":
				en.source = srcPath
			case r.Tarball != "":
				en.source, en.host = npmSource(r.Tarball, false)
			}
			ix.add(name, version, en)
		}
	}
	return ix, nil
}

// pnpmKey splits a packages key into name and version.
func pnpmKey(k string) (string, string) {
	k = strings.TrimPrefix(k, "/")
	if i := strings.Index(k, "("); i > 0 {
		k = k[:i] // peer-dependency suffix
	}
	if i := strings.Index(k[min(1, len(k)):], "@"); i >= 0 {
		i++
		return k[:i], k[i+1:]
	}
	if i := strings.LastIndex(k, "/"); i > 0 { // v5: /name/version
		return k[:i], k[i+1:]
	}
	return k, ""
}

// yamlErr turns a yaml.v3 error ("yaml: line 3: …") into a ParseError.
func yamlErr(err error) error {
	line := 0
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line)
	}
	return &collectors.ParseError{Line: line, Err: fmt.Errorf("parse YAML: %w", err)}
}
