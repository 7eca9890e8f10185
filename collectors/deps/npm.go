package deps

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// npmLockEntry is the part of a package-lock.json (v2/v3 "packages", v1
// "dependencies") entry that says where a package comes from and whether it
// runs code at install time.
type npmLockEntry struct {
	Name             string `json:"name"`
	Version          string `json:"version"`
	Resolved         string `json:"resolved"`
	Link             bool   `json:"link"`
	HasInstallScript bool   `json:"hasInstallScript"`
	// Dependencies nests v1 entries; a v2/v3 "packages" entry's
	// dependencies are specs, skipped by decoding into lockFlat.
	Dependencies map[string]json.RawMessage `json:"dependencies"`
}

// lockFlat is npmLockEntry without the nesting: decoding a v2/v3 entry's
// dependency specs into raw messages was a third of the indexing time.
type lockFlat struct {
	Name             string `json:"name"`
	Version          string `json:"version"`
	Resolved         string `json:"resolved"`
	Link             bool   `json:"link"`
	HasInstallScript bool   `json:"hasInstallScript"`
}

// indexPackageLock walks package-lock.json with a streaming decoder, so each
// entry's line comes from the decoder's offset, not from a text search.
func indexPackageLock(text []byte) (*lockIndex, error) {
	if json.Valid(text) {
		if ix, ok := indexPackageLockFast(text); ok {
			return ix, nil
		}
	}
	return decodePackageLock(text)
}

// decodePackageLock is the decoder path: v1 lockfiles, and malformed files,
// whose error it places.
func decodePackageLock(text []byte) (*lockIndex, error) {
	ix := newLockIndex(text)
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, jsonErr(ix, dec, err)
	}
	var header, entries []block
	var root []byte
	hasPackages := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, jsonErr(ix, dec, err)
		}
		switch key {
		case "packages":
			hasPackages = true
			err = walkNpmObject(dec, false, func(k string, line int, e npmLockEntry, raw []byte) {
				if k == "" { // the project itself
					root = raw
					return
				}
				entries = append(entries, block{key: k, raw: raw})
				name := e.Name
				if name == "" {
					name = npmNameFromPath(k)
				}
				en := npmEntry(line, e)
				if !strings.Contains(k, "node_modules/") {
					en.source, en.host = srcPath, "" // a workspace folder of the repository
				}
				ix.add(name, e.Version, en)
			}, ix)
		case "dependencies": // lockfileVersion 1: nested objects
			err = walkNpmV1(dec, ix)
		default:
			var raw json.RawMessage
			err = dec.Decode(&raw)
			k, _ := key.(string)
			header = append(header, block{key: k, raw: raw})
		}
		if err != nil {
			return nil, jsonErr(ix, dec, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonErr(ix, dec, err)
	}
	if hasPackages { // v2 and v3; a v2 file's v1 "dependencies" section is dropped
		ix.reduce = npmReducer(header, root, entries)
	}
	return ix, nil
}

// walkNpmObject decodes an object of entries, reporting each key's line and
// the entry's raw text.
func walkNpmObject(dec *json.Decoder, nested bool, fn func(key string, line int, e npmLockEntry, raw []byte), ix *lockIndex) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		start := int(dec.InputOffset())
		line := ix.lines.Line(start - 1)
		var e npmLockEntry
		if nested {
			if err := dec.Decode(&e); err != nil {
				return err
			}
		} else {
			var f lockFlat
			if err := dec.Decode(&f); err != nil {
				return err
			}
			e = npmLockEntry{Name: f.Name, Version: f.Version, Resolved: f.Resolved, Link: f.Link, HasInstallScript: f.HasInstallScript}
		}
		raw := bytes.TrimLeft(ix.text[start:int(dec.InputOffset())], " \t\r\n:")
		fn(k, line, e, raw)
	}
	_, err := dec.Token()
	return err
}

// walkNpmV1 indexes a v1 "dependencies" tree. Nested entries are placed by
// the line of their parent's key, searched forward for the nested name:
// v1 lockfiles date from npm 6, so the precision is good enough.
func walkNpmV1(dec *json.Decoder, ix *lockIndex) error {
	return walkNpmObject(dec, true, func(k string, line int, e npmLockEntry, _ []byte) {
		ix.add(k, e.Version, npmEntry(line, e))
		addNpmV1Nested(ix, line, e.Dependencies)
	}, ix)
}

func addNpmV1Nested(ix *lockIndex, parentLine int, deps map[string]json.RawMessage) {
	for name, raw := range deps {
		var e npmLockEntry
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		line := parentLine
		start := ix.lines[min(parentLine, len(ix.lines))-1]
		if i := bytes.Index(ix.text[start:], []byte(`"`+name+`"`)); i >= 0 {
			line = ix.lines.Line(start + i)
		}
		ix.add(name, e.Version, npmEntry(line, e))
		addNpmV1Nested(ix, line, e.Dependencies)
	}
}

func npmEntry(line int, e npmLockEntry) entry {
	src, host := npmSource(e.Resolved, e.Link)
	return entry{line: line, installScript: e.HasInstallScript, source: src, host: host}
}

// npmNameFromPath: "node_modules/a/node_modules/@s/b" -> "@s/b".
func npmNameFromPath(p string) string {
	if i := strings.LastIndex(p, "node_modules/"); i >= 0 {
		return p[i+len("node_modules/"):]
	}
	return p // a workspace folder
}

// npmSource classifies a resolved URL. Registry tarballs follow
// <registry>/<name>/-/<name>-<version>.tgz; any other URL is a tarball the
// registry never vetted.
func npmSource(resolved string, link bool) (src, host string) {
	r := strings.TrimSpace(resolved)
	switch {
	case link, strings.HasPrefix(r, "file:"), strings.HasPrefix(r, "link:"),
		strings.HasPrefix(r, "portal:"), strings.HasPrefix(r, "workspace:"):
		return srcPath, ""
	case r == "":
		return srcRegistry, ""
	case strings.HasPrefix(r, "git+"), strings.HasPrefix(r, "git:"), strings.HasPrefix(r, "github:"),
		strings.HasPrefix(r, "git@"), strings.HasPrefix(r, "gitlab:"), strings.HasPrefix(r, "bitbucket:"):
		return srcGit, urlHost(r)
	case strings.HasPrefix(r, "http://"), strings.HasPrefix(r, "https://"):
		u, err := url.Parse(r)
		if err != nil {
			return srcTarball, ""
		}
		if strings.HasSuffix(u.Path, ".git") || strings.Contains(r, "#commit=") {
			return srcGit, u.Hostname()
		}
		if strings.Contains(u.Path, "/-/") {
			return srcRegistry, u.Hostname()
		}
		return srcTarball, u.Hostname()
	}
	return srcPath, "" // a relative folder (workspace link)
}

// urlHost extracts the host of git+https://, git+ssh://git@host/…, git@host:…
// and shorthand (github:user/repo) specs.
func urlHost(s string) string {
	s = strings.TrimPrefix(s, "git+")
	for sh, h := range map[string]string{"github:": "github.com", "gitlab:": "gitlab.com", "bitbucket:": "bitbucket.org"} {
		if strings.HasPrefix(s, sh) {
			return h
		}
	}
	if strings.HasPrefix(s, "git@") {
		s = strings.TrimPrefix(s, "git@")
		if i := strings.IndexAny(s, ":/"); i >= 0 {
			return s[:i]
		}
		return s
	}
	if u, err := url.Parse(s); err == nil {
		return u.Hostname()
	}
	return ""
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		// The kind of what was found, not its text (a string may be a token).
		return fmt.Errorf("expected %q, found %s", d, tokenKind(tok))
	}
	return nil
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return strconv.Quote(t.String())
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a value"
}

// jsonErr places a JSON error at the line where decoding stopped.
func jsonErr(ix *lockIndex, dec *json.Decoder, err error) error {
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("unexpected end of JSON")
	}
	return &collectors.ParseError{Line: ix.lines.Line(max(off-1, 0)), Err: fmt.Errorf("parse JSON: %w", err)}
}
