package kubernetes

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Decoding into yaml.Node does not expand aliases, so yaml.v3's own alias
// ratio check never runs: a billion-laughs document parses into a few nodes
// and would only explode while we walk it. checkExpansion bounds that walk
// before anything else reads the document.
const (
	expansionBase   = 100_000
	expansionFactor = 10
)

// expansionError is a document whose aliases expand too far or loop.
type expansionError struct {
	line int
	msg  string
	dup  bool // a key defined twice: the document alone is refused
}

func (e *expansionError) Error() string { return e.msg }

// checkExpansion counts the nodes root spans once every alias is expanded
// and fails when that exceeds expansionBase + expansionFactor × the nodes
// written, or when an anchor refers to itself. It is linear in the nodes
// written: each anchor's expanded size is computed once.
func checkExpansion(root *yaml.Node) error {
	written, aliases := 0, false
	var dup error
	var count func(n *yaml.Node)
	count = func(n *yaml.Node) {
		written++
		aliases = aliases || n.Kind == yaml.AliasNode
		if n.Kind == yaml.MappingNode && dup == nil {
			dup = duplicateKey(n)
		}
		for _, c := range n.Content {
			count(c)
		}
	}
	count(root)
	if dup != nil {
		return dup
	}
	if !aliases {
		// Nothing expands: the document is as large as it is written.
		return nil
	}
	limit := expansionBase + expansionFactor*written
	memo := map[*yaml.Node]int{}
	onPath := map[*yaml.Node]bool{}
	var size func(n *yaml.Node) (int, error)
	size = func(n *yaml.Node) (int, error) {
		if s, ok := memo[n]; ok {
			return s, nil
		}
		if onPath[n] {
			return 0, &expansionError{line: n.Line, msg: fmt.Sprintf("anchor %q contains an alias to itself", n.Anchor)}
		}
		onPath[n] = true
		defer delete(onPath, n)
		total := 1
		children := n.Content
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			children = []*yaml.Node{n.Alias}
		}
		for _, c := range children {
			s, err := size(c)
			if err != nil {
				return 0, err
			}
			total += s
			if total > limit {
				return 0, &expansionError{line: n.Line, msg: fmt.Sprintf("aliases expand the document past %d nodes (YAML bomb?)", limit)}
			}
		}
		memo[n] = total
		return total, nil
	}
	_, err := size(root)
	return err
}

// duplicateKey reports a key written twice in one mapping: which value
// Kubernetes takes depends on the reader (the last in a lenient one, an
// error in a strict one), and it is most often two objects run together by
// a missing document separator.
func duplicateKey(n *yaml.Node) error {
	keys := n.Content
	var seen map[string]int // only for large mappings: small ones compare pairwise
	if len(keys) > 32 {
		seen = make(map[string]int, len(keys)/2)
	}
	for i := 0; i+1 < len(keys); i += 2 {
		k := keys[i]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			continue
		}
		first := 0
		if seen != nil {
			first = seen[k.Value]
			seen[k.Value] = k.Line
		} else {
			for j := 0; j < i; j += 2 {
				if p := keys[j]; p.Kind == yaml.ScalarNode && p.Tag != "!!merge" && p.Value == k.Value {
					first = p.Line
					break
				}
			}
		}
		if first != 0 {
			return &expansionError{line: k.Line, dup: true, msg: fmt.Sprintf("duplicate key %q (first at line %d): the document is ambiguous; a missing --- between two objects?", k.Value, first)}
		}
	}
	return nil
}

// deref follows an alias to its anchored node. checkExpansion has ruled out
// cycles, and an alias never points at another alias.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}

// pair is one key/value of a mapping.
type pair struct{ key, val *yaml.Node }

// entries lists a mapping's pairs with YAML merge keys (<<: *base) applied
// the way Kubernetes' YAML reader does: keys written in the mapping win over
// merged ones, and earlier merge sources win over later ones.
func entries(n *yaml.Node) []pair {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out, merged []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			src := deref(v)
			if src != nil && src.Kind == yaml.SequenceNode {
				for _, s := range src.Content {
					merged = append(merged, entries(s)...)
				}
			} else {
				merged = append(merged, entries(src)...)
			}
			continue
		}
		out = append(out, pair{k, v})
		seen[k.Value] = true
	}
	for _, p := range merged {
		if !seen[p.key.Value] {
			out = append(out, p)
			seen[p.key.Value] = true
		}
	}
	return out
}

// lookup returns the key and value nodes of key in mapping n (nil, nil when absent).
func lookup(n *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	// Most mappings have no merge key: find the key without building the
	// merged entry list (lookup runs for every field of every object).
	merge := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merge = true
			break
		}
	}
	if !merge {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Value == key {
				return k, deref(n.Content[i+1])
			}
		}
		return nil, nil
	}
	for _, p := range entries(n) {
		if p.key.Value == key {
			return p.key, deref(p.val)
		}
	}
	return nil, nil
}

// get returns the value node of key in mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	_, v := lookup(n, key)
	return v
}

// dig follows nested mapping keys.
func dig(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = get(n, k)
	}
	return n
}

// items returns a sequence's elements (dereferenced); nil for anything else.
func items(n *yaml.Node) []*yaml.Node {
	n = deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		out = append(out, deref(c))
	}
	return out
}

// str returns a scalar's text; "" for null, absent or non-scalar nodes.
func str(n *yaml.Node) string {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// boolean reads a Kubernetes boolean. Kubernetes reads manifests with a YAML
// 1.1 parser, so an unquoted yes/on/y is true there even though yaml.v3
// sees a string; reading it as 1.2 would let `privileged: yes` slip by.
// A quoted value is a string, which the API server rejects: not set.
func boolean(n *yaml.Node) (value, ok bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return false, false
	}
	switch n.Value {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y":
		return true, true
	case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N":
		return false, true
	}
	return false, false
}

// integer reads an unquoted integer scalar.
func integer(n *yaml.Node) (int64, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return 0, false
	}
	if v, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
		return v, true
	}
	v, err := strconv.ParseInt(n.Value, 0, 64)
	return v, err == nil
}

// strMap reads a mapping of scalars (labels, annotations, matchLabels).
func strMap(n *yaml.Node) map[string]string {
	es := entries(n)
	if len(es) == 0 {
		return nil
	}
	m := make(map[string]string, len(es))
	for _, p := range es {
		m[p.key.Value] = str(p.val)
	}
	return m
}

// strList reads a sequence of scalars.
func strList(n *yaml.Node) []string {
	var out []string
	for _, it := range items(n) {
		if s := str(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}
