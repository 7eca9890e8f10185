package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

var inputVar, dataVar = ast.Var("input"), ast.Var("data")

// reads is what a group of modules reads: the top-level input keys, the
// library packages (data.lib.<name>) and any other data it refers to.
type reads struct {
	keys  map[string]bool
	all   bool            // input read whole or by a computed key
	libs  map[string]bool // "lib.sa", "lib.workload", …
	other []string        // data refs that are neither a library nor the module's own package
}

// readsOf walks the modules' rules (heads and bodies) and collects what they
// read of input and data. It is conservative: an input reference that does
// not name a key at once (input[k], input passed to a function, walk(input))
// sets all, and the group then runs on every input.
func readsOf(mods []*ast.Module) reads {
	r := reads{keys: map[string]bool{}, libs: map[string]bool{}}
	for _, m := range mods {
		for _, imp := range m.Imports {
			if ref, ok := imp.Path.Value.(ast.Ref); ok {
				r.dataRef(ref, m)
			}
		}
		for _, rule := range m.Rules {
			r.walk(rule, m)
		}
	}
	return r
}

func (r *reads) walk(x any, m *ast.Module) {
	ast.NewGenericVisitor(func(x any) bool {
		switch v := x.(type) {
		case *ast.Expr:
			if v.Negated {
				// not input.x, not object.get(input, "x", …): true when the
				// fact is absent, the very input an area is skipped on.
				sub := reads{keys: map[string]bool{}, libs: r.libs}
				cp := v.Copy()
				cp.Negated = false
				sub.walk(cp, m)
				r.all = r.all || sub.all || len(sub.keys) > 0
				r.other = append(r.other, sub.other...)
				return true
			}
			if v.IsCall() {
				return r.call(v.Operator(), v.Operands(), m)
			}
		case ast.Call:
			if op, ok := v[0].Value.(ast.Ref); ok {
				return r.call(op, v[1:], m)
			}
		case ast.Ref:
			return r.ref(v, m)
		case ast.Var:
			if v == inputVar {
				r.all = true
			}
		}
		return false
	}).Walk(x)
}

// call handles object.get(input, key, default): the key is read. Other calls
// are walked as they are.
func (r *reads) call(op ast.Ref, args []*ast.Term, m *ast.Module) bool {
	if op.String() != "object.get" || len(args) < 2 || !isInput(args[0]) {
		return false
	}
	r.key(args[1])
	for _, a := range args[1:] {
		r.walk(a, m)
	}
	return true
}

func (r *reads) ref(ref ast.Ref, m *ast.Module) bool {
	head := ref[0].Value
	switch {
	case head.Compare(inputVar) == 0:
		if len(ref) < 2 {
			r.all = true
		} else {
			r.key(ref[1])
		}
	case head.Compare(dataVar) == 0:
		r.dataRef(ref, m)
	default:
		return false
	}
	for _, t := range ref[1:] {
		r.walk(t, m)
	}
	return true
}

// key records a key term: a string, or an array path whose first element is
// one (object.get(input, ["compose", "x"], d)); anything else reads all.
func (r *reads) key(t *ast.Term) {
	switch k := t.Value.(type) {
	case ast.String:
		r.keys[string(k)] = true
		return
	case *ast.Array:
		if k.Len() > 0 {
			if s, ok := k.Elem(0).Value.(ast.String); ok {
				r.keys[string(s)] = true
				return
			}
		}
	}
	r.all = true
}

// dataRef records data.lib.<name>…; a reference to any other data but the
// module's own package is listed in other.
func (r *reads) dataRef(ref ast.Ref, m *ast.Module) {
	if len(ref) >= 3 {
		if s, ok := ref[1].Value.(ast.String); ok && s == "lib" {
			if name, ok := ref[2].Value.(ast.String); ok {
				r.libs["lib."+string(name)] = true
				return
			}
		}
	}
	if ref.HasPrefix(m.Package.Path) {
		return
	}
	r.other = append(r.other, fmt.Sprintf("%s reads %s", m.Package.Path, ref))
}

func isInput(t *ast.Term) bool {
	switch v := t.Value.(type) {
	case ast.Var:
		return v == inputVar
	case ast.Ref:
		return len(v) == 1 && isInput(v[0])
	}
	return false
}

// notFacts are input keys every input has that no rule iterates: the
// policy's parameters. A group that reads only these has nothing to judge.
var notFacts = map[string]bool{"params": true}

// factKeys is the sorted list of keys the group needs one of to have anything
// to judge; nil when it must run on every input: it reads input whole, or
// no fact at all (its rules would say the same of any input).
func (r reads) factKeys() []string {
	if r.all {
		return nil
	}
	var out []string
	for k := range r.keys {
		if !notFacts[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// hasAny reports whether input has a non-empty value under one of keys: a
// rule group that reads none of them has nothing to iterate and is skipped.
func hasAny(input ast.Value, keys []string) bool {
	obj, ok := input.(ast.Object)
	if !ok {
		return true
	}
	for _, k := range keys {
		v := obj.Get(ast.StringTerm(k))
		if v == nil {
			continue
		}
		switch x := v.Value.(type) {
		case ast.Null:
		case *ast.Array:
			if x.Len() > 0 {
				return true
			}
		case ast.Object:
			if x.Len() > 0 {
				return true
			}
		case ast.Set:
			if x.Len() > 0 {
				return true
			}
		case ast.String:
			if x != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// libOf is the library package a module defines ("lib.workload"), or "".
func libOf(m *ast.Module) string {
	p := strings.TrimPrefix(m.Package.Path.String(), "data.")
	if strings.HasPrefix(p, "lib.") {
		return p
	}
	return ""
}
