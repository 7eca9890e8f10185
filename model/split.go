package model

import (
	"reflect"
	"sort"
	"strings"
)

// Split cuts a large document into parts of about maxFiles files, by
// top-level directory, so rules evaluate on small inputs: OPA's evaluation
// cost and memory grow with the input, and a fleet of repositories in one
// scan is many independent sandboxes. Facts only ever join within a
// top-level directory (settings merge per project; Kubernetes objects are
// linked before the split), except for live facts, which drift rules compare
// with every workload: a document with live facts is never split, nor one
// with the repository's GitHub settings, which rules join with workflows
// and agents anywhere in the tree. The first
// part carries the dependency change and the policy facts.
//
// Split builds every part at once and leaves d as it is; Parts builds them
// one at a time.
func (d *Document) Split(maxFiles int) []*Document {
	ps := d.parts(maxFiles, false)
	out := make([]*Document, ps.Len())
	for i := range out {
		out[i] = ps.Part(i)
	}
	return out
}

// Parts cuts d as Split does, but builds each part only when Part asks for
// it, and moves the facts there: every fact handed to a part is zeroed in
// d (but one that another fact points into), so what it holds (strings,
// nested lists) goes with the part once the part is judged, and d's lists
// are emptied once every part is built. On a
// large tree the facts would otherwise be held twice, and all of them to
// the end of the evaluation. When d is not split, its one part is d itself,
// left whole. Part(i) is called once for each i; d's lists are of no use
// after that.
func (d *Document) Parts(maxFiles int) *Parts {
	return d.parts(maxFiles, true)
}

// Parts is a document cut into parts (Document.Parts).
type Parts struct {
	d     *Document
	whole bool
	move  bool
	n     int
	built int
	// lists[f][p] are the indices in d's list field f of part p's facts,
	// in the order Split gives them: by top-level directory, then as in d.
	lists map[int][][]int32
	// pinned[f][i] is set when a pointer of d points into fact i of list
	// f: it is copied but not zeroed (pins). Nil: no fact is zeroed.
	pinned map[int][]bool
}

// Len is the number of parts.
func (ps *Parts) Len() int { return ps.n }

func (d *Document) parts(maxFiles int, move bool) *Parts {
	if d.Live != nil || d.Repository != nil || len(d.Files) <= maxFiles {
		return &Parts{d: d, whole: true, n: 1}
	}
	v := reflect.ValueOf(d).Elem()
	lists := listFields(v.Type())
	// The cut is Split's: the top-level directories that hold a fact, in
	// order, a part closed once it holds maxFiles files.
	files := map[string]int{}
	for _, f := range d.Files {
		files[topDir(f.Path)]++
	}
	var keys []string
	seen := map[string]bool{}
	for _, l := range lists {
		for i := range l.len(v) {
			if k := topDir(l.file(v, i)); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	type place struct{ part, rank int }
	at := make(map[string]place, len(keys))
	n, cur := 0, 0
	for r, k := range keys {
		at[k] = place{n, r}
		cur += files[k]
		if cur >= maxFiles {
			n, cur = n+1, 0
		}
	}
	if cur > 0 || n == 0 {
		n++ // the last part; after the last cut, facts of no file are left out, as Split always did
	}
	ps := &Parts{d: d, move: move, n: n, lists: map[int][][]int32{}}
	if move {
		ps.pinned = d.pins(lists)
	}
	for _, l := range lists {
		type fact struct {
			place
			i int32
		}
		var facts []fact
		for i := range l.len(v) {
			if p := at[topDir(l.file(v, i))]; p.part < n {
				facts = append(facts, fact{p, int32(i)})
			}
		}
		if len(facts) == 0 {
			continue
		}
		sort.SliceStable(facts, func(i, j int) bool {
			if facts[i].part != facts[j].part {
				return facts[i].part < facts[j].part
			}
			return facts[i].rank < facts[j].rank
		})
		byPart := make([][]int32, n)
		for _, f := range facts {
			byPart[f.part] = append(byPart[f.part], f.i)
		}
		ps.lists[l.field] = byPart
	}
	return ps
}

// Part builds part i.
func (ps *Parts) Part(i int) *Document {
	d := ps.d
	if ps.whole {
		return d
	}
	p := &Document{}
	dv, pv := reflect.ValueOf(d).Elem(), reflect.ValueOf(p).Elem()
	for f, byPart := range ps.lists {
		idx := byPart[i]
		if len(idx) == 0 {
			continue
		}
		src, dst := dv.Field(f), pv.Field(f)
		dst.Set(reflect.MakeSlice(dst.Type(), len(idx), len(idx)))
		for k, j := range idx {
			dst.Index(k).Set(src.Index(int(j)))
			if ps.pinned != nil && !ps.pinned[f][j] {
				src.Index(int(j)).SetZero()
			}
		}
		byPart[i] = nil
	}
	p.Params = d.Params
	if i == 0 {
		p.Deps, p.Policy = d.Deps, d.Policy
	}
	if ps.built++; ps.move && ps.built == ps.n {
		// Every fact was handed out: d's lists hold only zeroed facts (and
		// those Split leaves out).
		for _, l := range listFields(dv.Type()) {
			dv.Field(l.field).SetZero()
		}
	}
	p.GroupAgents()
	p.Normalize()
	return p
}

// topDir is the top-level directory of a fact's file, "" for the files at
// the root.
func topDir(file string) string {
	if i := strings.IndexByte(file, '/'); i >= 0 {
		return file[:i]
	}
	return ""
}

// list is one of Document's lists of facts, and where its facts name
// their file.
type list struct {
	field int
	name  []int // index path of the file's name in an element
}

func (l list) len(d reflect.Value) int { return d.Field(l.field).Len() }

func (l list) file(d reflect.Value, i int) string {
	return d.Field(l.field).Index(i).FieldByIndex(l.name).String()
}

// listFields are Document's lists of facts: every fact names its file (a
// File its path, the others their file).
func listFields(t reflect.Type) []list {
	var out []list
	for i := range t.NumField() {
		ft := t.Field(i).Type
		if ft.Kind() != reflect.Slice {
			continue
		}
		name := "File"
		if ft.Elem() == reflect.TypeFor[File]() {
			name = "Path"
		}
		f, ok := ft.Elem().FieldByName(name)
		if !ok || f.Type.Kind() != reflect.String {
			panic("model: facts of " + t.Field(i).Name + " name no file")
		}
		out = append(out, list{field: i, name: f.Index})
	}
	return out
}
