package kubernetes

import (
	"fmt"
	"strings"
)

// A Calico selector expression (projectcalico.org/v3, policy selector,
// namespaceSelector, serviceAccountSelector; syntax from
// pkg/apis/projectcalico/v3 NetworkPolicySpec.Selector and Calico's
// selector reference):
//
//	k == "v"   k != "v" (also true when k is absent)
//	k in {"a", "b"}   k not in {"a", "b"}
//	has(k)   k contains "s"   k starts with "s"   k ends with "s"
//	!e   e && e   e || e   (e)   all()   global()
//
// Literals are single- or double-quoted, without escapes. The empty
// selector is all(). global() selects non-namespaced resources (host
// endpoints, global network sets), never a pod.
type calicoSel interface {
	eval(l labeler) tri
}

type (
	selAll    struct{}
	selGlobal struct{}
	selNot    struct{ e calicoSel }
	selAnd    struct{ a, b calicoSel }
	selOr     struct{ a, b calicoSel }
	selHas    struct{ k string }
	selCmp    struct {
		k, op string
		vs    []string
	}
)

func (selAll) eval(labeler) tri     { return yes }
func (selGlobal) eval(labeler) tri  { return no }
func (s selNot) eval(l labeler) tri { return not(s.e.eval(l)) }
func (s selAnd) eval(l labeler) tri { return and(s.a.eval(l), s.b.eval(l)) }
func (s selOr) eval(l labeler) tri  { return or(s.a.eval(l), s.b.eval(l)) }
func (s selHas) eval(l labeler) tri {
	_, set, known := l(s.k)
	if !known {
		return maybe
	}
	return triOf(set)
}

func (s selCmp) eval(l labeler) tri {
	v, set, known := l(s.k)
	if !known {
		return maybe
	}
	switch s.op {
	case "==":
		return triOf(set && v == s.vs[0])
	case "!=":
		return triOf(!set || v != s.vs[0])
	case "in":
		return triOf(set && contains(s.vs, v))
	case "not in":
		return triOf(!set || !contains(s.vs, v))
	case "contains":
		return triOf(set && strings.Contains(v, s.vs[0]))
	case "starts with":
		return triOf(set && strings.HasPrefix(v, s.vs[0]))
	case "ends with":
		return triOf(set && strings.HasSuffix(v, s.vs[0]))
	}
	return maybe
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// parseCalicoSelector parses a selector; an error names what was not
// understood.
func parseCalicoSelector(s string) (calicoSel, error) {
	p := &selParser{s: s}
	p.skip()
	if p.eof() {
		return selAll{}, nil
	}
	e, err := p.or(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if !p.eof() {
		return nil, fmt.Errorf("unexpected %q at %d", p.rest(), p.i)
	}
	return e, nil
}

type selParser struct {
	s string
	i int
}

// maxSelDepth bounds nesting so a hostile selector cannot exhaust the stack.
const maxSelDepth = 100

func (p *selParser) eof() bool    { return p.i >= len(p.s) }
func (p *selParser) rest() string { return p.s[p.i:min(len(p.s), p.i+20)] }
func (p *selParser) skip() {
	for !p.eof() && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// eat consumes tok (after blanks) when it comes next.
func (p *selParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *selParser) or(depth int) (calicoSel, error) {
	a, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.eat("||") {
		b, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		a = selOr{a, b}
	}
	return a, nil
}

func (p *selParser) and(depth int) (calicoSel, error) {
	a, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.eat("&&") {
		b, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		a = selAnd{a, b}
	}
	return a, nil
}

func (p *selParser) unary(depth int) (calicoSel, error) {
	if depth > maxSelDepth {
		return nil, fmt.Errorf("nested too deep")
	}
	p.skip()
	if strings.HasPrefix(p.s[p.i:], "!=") {
		return nil, fmt.Errorf("unexpected %q at %d", p.rest(), p.i)
	}
	if p.eat("!") {
		e, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return selNot{e}, nil
	}
	if p.eat("(") {
		e, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, fmt.Errorf("missing ) at %d", p.i)
		}
		return e, nil
	}
	if p.eat("all()") {
		return selAll{}, nil
	}
	if p.eat("global()") {
		return selGlobal{}, nil
	}
	if p.eat("has(") {
		k := p.label()
		if k == "" || !p.eat(")") {
			return nil, fmt.Errorf("bad has() at %d", p.i)
		}
		return selHas{k}, nil
	}
	k := p.label()
	if k == "" {
		return nil, fmt.Errorf("unexpected %q at %d", p.rest(), p.i)
	}
	for _, op := range []string{"==", "!=", "not in", "in", "contains", "starts with", "ends with"} {
		if p.eat(op) {
			if op == "in" || op == "not in" {
				vs, err := p.set()
				if err != nil {
					return nil, err
				}
				return selCmp{k, op, vs}, nil
			}
			v, err := p.literal()
			if err != nil {
				return nil, err
			}
			return selCmp{k, op, []string{v}}, nil
		}
	}
	return nil, fmt.Errorf("no operator after %q", k)
}

// label reads a label name: alphanumerics, '-', '_', '.', '/'.
func (p *selParser) label() string {
	p.skip()
	start := p.i
	for !p.eof() {
		c := p.s[p.i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./", c) >= 0 {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *selParser) literal() (string, error) {
	p.skip()
	if p.eof() || (p.s[p.i] != '"' && p.s[p.i] != '\'') {
		return "", fmt.Errorf("want a quoted string at %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string at %d", p.i)
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *selParser) set() ([]string, error) {
	if !p.eat("{") {
		return nil, fmt.Errorf("want { at %d", p.i)
	}
	var vs []string
	if p.eat("}") {
		return vs, nil
	}
	for {
		v, err := p.literal()
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		if p.eat("}") {
			return vs, nil
		}
		if !p.eat(",") {
			return nil, fmt.Errorf("want , or } at %d", p.i)
		}
	}
}

// calicoIndexKey finds an equality k == "v" that every pod the selector
// matches must satisfy (a top-level conjunct), to index policies by label.
func calicoIndexKey(s calicoSel) (string, string, bool) {
	switch e := s.(type) {
	case selCmp:
		if e.op == "==" {
			return e.k, e.vs[0], true
		}
	case selAnd:
		if k, v, ok := calicoIndexKey(e.a); ok {
			return k, v, true
		}
		return calicoIndexKey(e.b)
	}
	return "", "", false
}
