package deps

import (
	"bytes"
	"encoding/json"
	"strings"
)

// reduceLockfiles is switched off by the test proving reduction changes
// nothing in the result.
var reduceLockfiles = true

// block is one package entry's text: the unit a lockfile is reduced by.
type block struct {
	key  string // the entry's key where the format has one (package-lock path)
	raw  []byte
	line int // where the format's index decodes blocks lazily
}

// reducer rewrites a lockfile keeping only some of its entries.
type reducer struct {
	blocks []block
	render func(kept []block) []byte
}

// reduceSides rewrites a lockfile present on both sides to the entries that
// differ between them, for syft to catalog. An entry whose text is the same
// on both sides cannot be added, removed or changed, so leaving it out
// changes nothing in the diff, and cataloging follows the size of the
// change instead of the size of the lockfile (a 2,000-package lockfile with
// 50 changes catalogs 50 entries a side). Lines still come from the full
// files' indexes. ok is false when the format has no reducer.
func reduceSides(base, head *lockIndex) (b, h []byte, ok bool) {
	if !reduceLockfiles || base.reduce == nil || head.reduce == nil {
		return nil, nil, false
	}
	set := func(bs []block) map[string]bool {
		m := make(map[string]bool, len(bs))
		for _, x := range bs {
			m[x.key+"\x00"+string(x.raw)] = true
		}
		return m
	}
	keep := func(bs []block, other map[string]bool) []block {
		var out []block
		for _, x := range bs {
			if !other[x.key+"\x00"+string(x.raw)] {
				out = append(out, x)
			}
		}
		return out
	}
	bs, hs := base.reduce.blocks, head.reduce.blocks
	bk, hk := keep(bs, set(hs)), keep(hs, set(bs))
	base.materialize(bk)
	head.materialize(hk)
	return base.reduce.render(bk), head.reduce.render(hk), true
}

// npmReducer rebuilds a package-lock.json from its top-level fields, the
// root entry and the kept "packages" entries.
func npmReducer(header []block, root []byte, entries []block) *reducer {
	return &reducer{blocks: entries, render: func(kept []block) []byte {
		var b bytes.Buffer
		b.WriteString("{")
		for _, h := range header {
			k, _ := json.Marshal(h.key)
			b.Write(k)
			b.WriteString(":")
			b.Write(h.raw)
			b.WriteString(",")
		}
		b.WriteString(`"packages":{`)
		sep := ""
		if root != nil {
			b.WriteString(`"":`)
			b.Write(root)
			sep = ","
		}
		for _, e := range kept {
			k, _ := json.Marshal(e.key)
			b.WriteString(sep)
			b.Write(k)
			b.WriteString(":")
			b.Write(e.raw)
			sep = ","
		}
		b.WriteString("}}")
		return b.Bytes()
	}}
}

// yarnReducer splits yarn.lock into entry blocks (a header at column 0 and
// its indented fields); comments and berry's __metadata stay in front.
func yarnReducer(text []byte, want int) *reducer {
	var pre strings.Builder
	var blocks []block
	var cur *strings.Builder
	for _, l := range strings.SplitAfter(string(text), "\n") {
		t := strings.TrimSpace(l)
		top := l != "" && l[0] != ' ' && l[0] != '\t' && t != "" && !strings.HasPrefix(t, "#")
		if top {
			if cur != nil {
				blocks = append(blocks, block{raw: []byte(cur.String())})
				cur = nil
			}
			if t != "__metadata:" {
				cur = &strings.Builder{}
			}
		}
		if cur != nil {
			cur.WriteString(l)
		} else {
			pre.WriteString(l)
		}
	}
	if cur != nil {
		blocks = append(blocks, block{raw: []byte(cur.String())})
	}
	if len(blocks) != want {
		return nil
	}
	head := pre.String()
	return &reducer{blocks: blocks, render: func(kept []block) []byte {
		var b bytes.Buffer
		b.WriteString(head)
		for _, k := range kept {
			b.WriteString("\n")
			b.Write(bytes.TrimRight(k.raw, "\n"))
			b.WriteString("\n")
		}
		return b.Bytes()
	}}
}
