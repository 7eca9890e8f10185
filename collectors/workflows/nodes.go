package workflows

import (
	"errors"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// maxVisits bounds how many nodes one file may make us visit. The node API
// does not expand aliases (the decoder's alias-ratio guard never runs), so a
// "billion laughs" document or a self-referencing anchor would otherwise
// make the walk explode or never end. Real workflows have a few thousand.
const maxVisits = 200_000

// scanner counts visits across a file and stops everything past the bound.
type scanner struct {
	visits int
	err    error
}

var errAliasBomb = errors.New("parse yaml: document expands to too many nodes (alias bomb or self-referencing anchor)")

// tick counts one visit; false means stop.
func (s *scanner) tick(n *yaml.Node) bool {
	if s.err != nil {
		return false
	}
	s.visits++
	if s.visits > maxVisits {
		s.err = &collectors.ParseError{Line: n.Line, Err: errAliasBomb}
		return false
	}
	return true
}

// scalars calls fn for every scalar under n, following aliases.
func (s *scanner) scalars(n *yaml.Node, fn func(*yaml.Node)) {
	if n == nil || !s.tick(n) {
		return
	}
	switch n.Kind {
	case yaml.AliasNode:
		s.scalars(n.Alias, fn)
	case yaml.ScalarNode:
		fn(n)
	default:
		for _, c := range n.Content {
			s.scalars(c, fn)
		}
	}
}

// resolve follows an alias to its anchored node.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return &yaml.Node{} // alias chain too long: treat as empty
	}
	return n
}

// getKV returns the key node and resolved value of key in mapping m.
func getKV(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := resolve(m.Content[i]); k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i], resolve(m.Content[i+1])
		}
	}
	return nil, nil
}

func get(m *yaml.Node, key string) *yaml.Node {
	_, v := getKV(m, key)
	return v
}

// scalar returns a scalar's text, "" for anything else.
func scalar(n *yaml.Node) string {
	if n = resolve(n); n != nil && n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

// pairs iterates a mapping's key/value pairs (values resolved).
func pairs(m *yaml.Node) [][2]*yaml.Node {
	m = resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	out := make([][2]*yaml.Node, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, [2]*yaml.Node{m.Content[i], resolve(m.Content[i+1])})
	}
	return out
}

// lineOf gives the line of the idx-th line of a scalar's text: block
// scalars (run: |) start on the line after their indicator.
func lineOf(n *yaml.Node, idx int) int {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Line + 1 + idx
	}
	return n.Line + idx
}

var (
	exprRE      = regexp.MustCompile(`\$\{\{(.*?)\}\}`)
	secretDotRE = regexp.MustCompile(`\bsecrets\.([A-Za-z_][A-Za-z0-9_-]*)`)
	secretIdxRE = regexp.MustCompile(`\bsecrets\[\s*['"]([^'"]+)['"]\s*\]`)
	ghTokenRE   = regexp.MustCompile(`\bgithub\.token\b`)
)

// secretNames lists the secrets an expression text refers to, GITHUB_TOKEN
// included (as secrets.GITHUB_TOKEN or github.token).
func secretNames(text string) []string {
	if !strings.Contains(text, "${{") {
		return nil
	}
	var out []string
	for _, e := range exprRE.FindAllStringSubmatch(text, -1) {
		for _, m := range secretDotRE.FindAllStringSubmatch(e[1], -1) {
			out = append(out, m[1])
		}
		for _, m := range secretIdxRE.FindAllStringSubmatch(e[1], -1) {
			out = append(out, m[1])
		}
		if ghTokenRE.MatchString(e[1]) {
			out = append(out, "GITHUB_TOKEN")
		}
	}
	return out
}

// onlyExpr reports a value that is nothing but one ${{ }} expression.
func onlyExpr(v string) bool {
	v = strings.TrimSpace(v)
	return strings.HasPrefix(v, "${{") && strings.HasSuffix(v, "}}") && strings.Count(v, "${{") == 1
}
