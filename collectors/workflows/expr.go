package workflows

import (
	"strings"
)

// passedSecretNames lists the secrets whose value an expression text may
// hand on, GITHUB_TOKEN included: the secrets its ${{ }} expressions can
// evaluate to. A secret that is only compared (secrets.X == 'on'), negated
// (!secrets.X), tested by contains/startsWith/endsWith, or the condition of
// a && b (whose result is b, or the secret only when it is empty) gives a
// boolean or a literal, not its value. An expression that does not parse
// counts every secret it names, as secretNames does.
func passedSecretNames(text string) []string {
	if !strings.Contains(text, "${{") {
		return nil
	}
	var out []string
	for _, e := range exprRE.FindAllStringSubmatch(text, -1) {
		p := &exprParser{toks: lexExpr(e[1])}
		n := p.or()
		if p.err || p.pos != len(p.toks) {
			out = append(out, secretNames("${{"+e[1]+"}}")...)
			continue
		}
		out = append(out, n.passes()...)
	}
	return out
}

// exprNode is a parsed GitHub Actions expression: a literal, a context
// path, an operator or a function call.
type exprNode struct {
	op   string // "lit", "path", "!", "==" (any comparison), "&&", "||", "call", "index"
	name string // path: the secret or token it names ("" for none); call: the function
	kids []*exprNode
}

// passes lists the secrets the node's value may be.
func (n *exprNode) passes() []string {
	switch n.op {
	case "lit", "!", "==":
		return nil
	case "path":
		if n.name != "" {
			return []string{n.name}
		}
		return nil
	case "&&":
		// a && b is a when a is falsy (an empty secret: nothing), else b.
		return n.kids[1].passes()
	case "call":
		switch strings.ToLower(n.name) {
		case "contains", "startswith", "endswith", "hashfiles",
			"success", "failure", "always", "cancelled":
			return nil
		}
	}
	var out []string
	for _, k := range n.kids {
		out = append(out, k.passes()...)
	}
	return out
}

type exprTok struct {
	kind string // "id", "str", "num", "op"
	text string
}

// lexExpr splits an expression into tokens; an unknown character is a
// token of its own, which the parser then refuses.
func lexExpr(s string) []exprTok {
	var out []exprTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return append(out, exprTok{"op", "'"}) // unterminated
			}
			out = append(out, exprTok{"str", b.String()})
			i = j + 1
		case isNameChar(c) || c == '-' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && (isNameChar(s[j]) || s[j] == '-' || s[j] == '.' && '0' <= c && c <= '9') {
				j++
			}
			kind := "id"
			if '0' <= c && c <= '9' || c == '-' {
				kind = "num"
			}
			out = append(out, exprTok{kind, s[i:j]})
			i = j
		default:
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "==", "!=", "<=", ">=", "&&", "||":
					out = append(out, exprTok{"op", two})
					i += 2
					continue
				}
			}
			out = append(out, exprTok{"op", string(c)})
			i++
		}
	}
	return out
}

type exprParser struct {
	toks []exprTok
	pos  int
	err  bool
}

func (p *exprParser) peek() exprTok {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return exprTok{}
}

func (p *exprParser) accept(op string) bool {
	if t := p.peek(); t.kind == "op" && t.text == op {
		p.pos++
		return true
	}
	return false
}

func (p *exprParser) or() *exprNode {
	n := p.and()
	for !p.err && p.accept("||") {
		n = &exprNode{op: "||", kids: []*exprNode{n, p.and()}}
	}
	return n
}

func (p *exprParser) and() *exprNode {
	n := p.cmp()
	for !p.err && p.accept("&&") {
		n = &exprNode{op: "&&", kids: []*exprNode{n, p.cmp()}}
	}
	return n
}

func (p *exprParser) cmp() *exprNode {
	n := p.unary()
	for !p.err {
		t := p.peek()
		if t.kind != "op" {
			break
		}
		switch t.text {
		case "==", "!=", "<", "<=", ">", ">=":
			p.pos++
			n = &exprNode{op: "==", kids: []*exprNode{n, p.unary()}}
			continue
		}
		break
	}
	return n
}

func (p *exprParser) unary() *exprNode {
	if p.accept("!") {
		return &exprNode{op: "!", kids: []*exprNode{p.unary()}}
	}
	return p.postfix()
}

// postfix reads a primary and its .name, .* and [index] accesses; a path
// is kept as a secret's name only when it is secrets.NAME,
// secrets['NAME'] or github.token.
func (p *exprParser) postfix() *exprNode {
	t := p.peek()
	switch {
	case p.err:
		return &exprNode{op: "lit"}
	case t.kind == "str", t.kind == "num":
		p.pos++
		return &exprNode{op: "lit"}
	case t.kind == "op" && t.text == "(":
		p.pos++
		n := p.or()
		if !p.accept(")") {
			p.err = true
		}
		return p.access(n, nil)
	case t.kind != "id":
		p.err = true
		return &exprNode{op: "lit"}
	}
	p.pos++
	switch strings.ToLower(t.text) {
	case "true", "false", "null":
		return &exprNode{op: "lit"}
	}
	if p.accept("(") {
		n := &exprNode{op: "call", name: t.text}
		if !p.accept(")") {
			for !p.err {
				n.kids = append(n.kids, p.or())
				if p.accept(")") {
					break
				}
				if !p.accept(",") {
					p.err = true
				}
			}
		}
		return p.access(n, nil)
	}
	return p.access(&exprNode{op: "path"}, []string{strings.ToLower(t.text)})
}

// access reads the accesses after a primary; path holds the names so far
// while they are plain names (nil once an access is computed).
func (p *exprParser) access(n *exprNode, path []string) *exprNode {
	name := func(raw string) {
		if path != nil {
			path = append(path, raw)
		}
	}
	for !p.err {
		switch {
		case p.accept("."):
			t := p.peek()
			switch {
			case t.kind == "id":
				p.pos++
				name(t.text)
			case t.kind == "op" && t.text == "*":
				p.pos++
				path = nil
			default:
				p.err = true
			}
		case p.accept("["):
			if t := p.peek(); t.kind == "str" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].text == "]" {
				p.pos += 2
				name(t.text)
				continue
			}
			idx := p.or()
			if !p.accept("]") {
				p.err = true
			}
			n = &exprNode{op: "index", kids: []*exprNode{n, idx}}
			path = nil
		default:
			if n.op == "path" && len(path) >= 2 {
				switch {
				case path[0] == "secrets":
					n.name = path[1]
				case path[0] == "github" && strings.EqualFold(path[1], "token"):
					n.name = "GITHUB_TOKEN"
				}
			}
			return n
		}
	}
	return n
}
