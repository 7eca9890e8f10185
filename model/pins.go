package model

import (
	"reflect"
	"sort"
)

// pins marks the facts of d's lists that a pointer of d points into, as a
// workload's egress points to the Firewall fact of its script (the firewall
// collector's Link): such a fact must stay whole where it is, or zeroing it
// would empty what the workload reads. It is nil when the facts could not
// all be walked (a cycle deeper than any fact): then none is to be zeroed.
func (d *Document) pins(lists []list) map[int][]bool {
	v := reflect.ValueOf(d).Elem()
	w := &pinWalk{pinned: map[int][]bool{}}
	for _, l := range lists {
		f := v.Field(l.field)
		if f.Len() == 0 {
			continue
		}
		size := f.Type().Elem().Size()
		start := uintptr(f.UnsafePointer())
		w.spans = append(w.spans, span{start: start, end: start + uintptr(f.Len())*size, size: size, field: l.field})
		w.pinned[l.field] = make([]bool, f.Len())
	}
	sort.Slice(w.spans, func(i, j int) bool { return w.spans[i].start < w.spans[j].start })
	listed := map[int]bool{}
	for _, l := range lists {
		listed[l.field] = true
		f := v.Field(l.field)
		for i := range f.Len() {
			w.walk(f.Index(i), 0) // the fact itself is in its list; what it points to is walked
		}
	}
	for i := range v.NumField() {
		if !listed[i] {
			w.walk(v.Field(i), 0)
		}
	}
	if w.failed {
		return nil
	}
	return w.pinned
}

// span is the memory of one of the document's lists.
type span struct {
	start, end, size uintptr
	field            int
}

type pinWalk struct {
	spans  []span
	pinned map[int][]bool
	failed bool
}

// maxDepth bounds the walk: the model nests a few levels, so a deeper
// walk is a cycle.
const maxDepth = 64

// pin marks the facts the memory [p, p+n) overlaps; it reports whether p is
// in a list.
func (w *pinWalk) pin(p, n uintptr) bool {
	i := sort.Search(len(w.spans), func(i int) bool { return w.spans[i].end > p })
	if i == len(w.spans) || p < w.spans[i].start {
		return false
	}
	s := w.spans[i]
	last := min(p+max(n, 1)-1, s.end-1)
	for k := (p - s.start) / s.size; k <= (last-s.start)/s.size; k++ {
		w.pinned[s.field][k] = true
	}
	return true
}

func (w *pinWalk) walk(v reflect.Value, depth int) {
	if depth > maxDepth {
		w.failed = true
	}
	if w.failed {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || w.pin(v.Pointer(), v.Type().Elem().Size()) {
			return // a fact of a list: walked there
		}
		w.walk(v.Elem(), depth+1)
	case reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.walk(v.Field(i), depth+1)
		}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return
		}
		if w.pin(v.Pointer(), uintptr(v.Len())*v.Type().Elem().Size()) {
			return
		}
		for i := range v.Len() {
			w.walk(v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i), depth+1)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			w.walk(it.Key(), depth+1)
			w.walk(it.Value(), depth+1)
		}
	}
}
