package deps

import (
	"bytes"
	"encoding/json"
	"strings"
)

// indexPackageLockFast splits a valid v2/v3 package-lock.json into its
// entries with a structural scan, and decodes an entry only when it is
// needed: after reduction, only the entries that differ between the sides.
// Decoding every entry of two 2,000-package lockfiles with encoding/json was
// most of a scan's time. ok is false for v1 files (nested "dependencies"),
// left to the decoder.
func indexPackageLockFast(text []byte) (*lockIndex, bool) {
	ix := newLockIndex(text)
	var header, entries []block
	var root []byte
	has := false
	i := skipWS(text, 0)
	if i >= len(text) || text[i] != '{' {
		return nil, false
	}
	bad := false
	members(text, i, func(key string, _, vs, ve int) {
		if key != "packages" {
			if key == "dependencies" && !has {
				return // v2 keeps a v1 copy after "packages"; v1 alone is not ours
			}
			header = append(header, block{key: key, raw: text[vs:ve]})
			return
		}
		has = true
		if text[vs] != '{' {
			bad = true
			return
		}
		members(text, vs, func(k string, ks, evs, eve int) {
			if k == "" {
				root = text[evs:eve]
				return
			}
			entries = append(entries, block{key: k, raw: text[evs:eve], line: ix.lines.Line(ks)})
		})
	})
	if bad || !has {
		return nil, false
	}
	// A v2 file's v1 copy is not written back: syft reads "packages".
	kept := header[:0]
	for _, h := range header {
		if h.key != "dependencies" {
			kept = append(kept, h)
		}
	}
	ix.reduce = npmReducer(kept, root, entries)
	ix.lazy = func(bs []block) {
		for _, b := range bs {
			var f lockFlat
			if json.Unmarshal(b.raw, &f) != nil {
				continue
			}
			name := f.Name
			if name == "" {
				name = npmNameFromPath(b.key)
			}
			en := npmEntry(b.line, npmLockEntry{Resolved: f.Resolved, Link: f.Link, HasInstallScript: f.HasInstallScript})
			if !strings.Contains(b.key, "node_modules/") {
				en.source, en.host = srcPath, "" // a workspace folder of the repository
			}
			ix.add(name, f.Version, en)
		}
	}
	ix.pending = true
	return ix, true
}

// members calls fn with each member of the object starting at b[i] ('{'):
// its key, the key's offset and its value's bounds. b is valid JSON
// (checked before).
func members(b []byte, i int, fn func(key string, ks, vs, ve int)) {
	for i++; ; {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == '}' {
			return
		}
		if b[i] == ',' {
			i++
			continue
		}
		ks := i
		i = skipString(b, i)
		key := jsonKey(b[ks:i])
		vs := skipWS(b, skipWS(b, i)+1) // past ':'
		i = skipValue(b, vs)
		fn(key, ks, vs, i)
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the offset after the value starting at b[i]; the text
// is valid JSON (checked before), so only strings and nesting matter.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// jsonKey unquotes a JSON string, the fast way when it has no escapes.
func jsonKey(q []byte) string {
	if len(q) >= 2 && bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	var s string
	_ = json.Unmarshal(q, &s)
	return s
}
