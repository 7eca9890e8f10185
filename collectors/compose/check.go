package compose

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// check refuses what yaml.v3 refuses when it decodes a document into plain
// values, as compose does: duplicate keys, merge keys whose value is not a
// mapping (or a list of them), collections as keys, mistyped tagged scalars
// (!!int x, bad !!binary), anchors that contain themselves and alias bombs.
//
// Why not decode with yaml.v3 (Node.Decode) as before: its duplicate-key
// check compares every pair of keys of a mapping, so one mapping of 70,000
// services took a minute (issue 13). check walks the same nodes in the same
// order, with the same alias accounting, and finds duplicates with a map:
// linear in the nodes visited, which the alias guard bounds as before.
func check(doc *yaml.Node) error {
	c := &checker{onStack: map[*yaml.Node]bool{}, checked: map[*yaml.Node]bool{}}
	return c.visit(doc)
}

type checker struct {
	decodeCount, aliasCount, aliasDepth int
	onStack                             map[*yaml.Node]bool // alias nodes being expanded
	checked                             map[*yaml.Node]bool // mappings whose keys were compared
}

func fail(n *yaml.Node, format string, args ...any) error {
	return &collectors.ParseError{Line: n.Line, Err: fmt.Errorf("parse compose file: "+format, args...)}
}

// allowedAliasRatio is yaml.v3's: small documents may be mostly aliases, a
// document of millions of nodes at most 10%.
func allowedAliasRatio(decodeCount int) float64 {
	const low, high = 400_000, 4_000_000
	switch {
	case decodeCount <= low:
		return 0.99
	case decodeCount >= high:
		return 0.10
	default:
		return 0.99 - 0.89*(float64(decodeCount-low)/float64(high-low))
	}
}

// tick is yaml.v3's accounting of one decoded node.
func (c *checker) tick(n *yaml.Node) error {
	c.decodeCount++
	if c.aliasDepth > 0 {
		c.aliasCount++
	}
	if c.aliasCount > 100 && c.decodeCount > 1000 && float64(c.aliasCount)/float64(c.decodeCount) > allowedAliasRatio(c.decodeCount) {
		return fail(n, "document contains excessive aliasing")
	}
	return nil
}

// visit mirrors yaml.v3's decoder.unmarshal for an interface{} target.
func (c *checker) visit(n *yaml.Node) error {
	if err := c.tick(n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return c.visit(n.Content[0])
		}
	case yaml.AliasNode:
		return c.alias(n, c.visit)
	case yaml.ScalarNode:
		return scalarErr(n)
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if err := c.visit(e); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		return c.mapping(n, false)
	}
	return nil
}

// alias mirrors decoder.alias: read the anchored node one alias deeper.
func (c *checker) alias(n *yaml.Node, read func(*yaml.Node) error) error {
	if c.onStack[n] {
		return fail(n, "anchor '%s' value contains itself", n.Value)
	}
	if n.Alias == nil {
		return fail(n, "unknown anchor '%s' referenced", n.Value)
	}
	c.onStack[n] = true
	c.aliasDepth++
	err := read(n.Alias)
	c.aliasDepth--
	delete(c.onStack, n)
	return err
}

// scalarErr resolves an explicitly tagged scalar with yaml.v3 itself (one
// node, so cheap): only a tag (!!int x, a bad !!binary) makes a scalar fail.
func scalarErr(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle == 0 {
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			err = errors.New(te.Errors[0])
		}
		return fail(n, "%v", err)
	}
	return nil
}

// mapping mirrors decoder.mapping: duplicate keys first (reported at the
// first key that has a later twin, as yaml.v3 does), then each key and
// value, then the merge key's value. merged is set while a merged mapping
// is read: its own merge does not re-read the outer keys.
func (c *checker) mapping(n *yaml.Node, merged bool) error {
	if !c.checked[n] {
		c.checked[n] = true
		if err := duplicates(n); err != nil {
			return err
		}
	}
	var merge *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMerge(k) {
			merge = v
			continue
		}
		if err := c.visit(k); err != nil {
			return err
		}
		if r := resolve(k); r != nil && (r.Kind == yaml.MappingNode || r.Kind == yaml.SequenceNode) {
			return fail(k, "invalid map key: %s", kindName(r))
		}
		if err := c.visit(v); err != nil {
			return err
		}
	}
	if merge == nil {
		return nil
	}
	return c.merge(n, merge, merged)
}

// duplicates finds keys written twice (same kind and text, as yaml.v3
// compares them) with one map instead of comparing every pair.
func duplicates(n *yaml.Node) error {
	type key struct {
		kind  yaml.Kind
		value string
	}
	first := make(map[key]int, len(n.Content)/2)
	bestI, bestJ := -1, -1
	for j := 0; j+1 < len(n.Content); j += 2 {
		k := key{n.Content[j].Kind, n.Content[j].Value}
		i, seen := first[k]
		if !seen {
			first[k] = j
			continue
		}
		if bestI < 0 || i < bestI {
			bestI, bestJ = i, j
		}
	}
	if bestI < 0 {
		return nil
	}
	ni, nj := n.Content[bestI], n.Content[bestJ]
	return fail(nj, "mapping key already defined at line %d", ni.Line)
}

// merge mirrors decoder.merge: the outermost merge re-reads the keys of the
// mapping it merges into, then each merged mapping is read.
func (c *checker) merge(parent, merge *yaml.Node, merged bool) error {
	if !merged {
		for i := 0; i+1 < len(parent.Content); i += 2 {
			if err := c.visit(parent.Content[i]); err != nil {
				return err
			}
		}
	}
	wantMap := func(at *yaml.Node) error { return fail(at, "map merge requires map or sequence of maps as the value") }
	var sources []*yaml.Node
	switch merge.Kind {
	case yaml.MappingNode:
		sources = []*yaml.Node{merge}
	case yaml.AliasNode:
		if merge.Alias != nil && merge.Alias.Kind != yaml.MappingNode {
			return wantMap(merge)
		}
		sources = []*yaml.Node{merge}
	case yaml.SequenceNode:
		for _, m := range merge.Content {
			if (m.Kind == yaml.AliasNode && m.Alias != nil && m.Alias.Kind != yaml.MappingNode) ||
				(m.Kind != yaml.AliasNode && m.Kind != yaml.MappingNode) {
				return wantMap(m)
			}
		}
		sources = merge.Content
	default:
		return wantMap(merge)
	}
	for _, m := range sources {
		if err := c.mergeOne(m); err != nil {
			return err
		}
	}
	return nil
}

// mergeOne reads one merged mapping (or an alias of one) as yaml.v3 does.
func (c *checker) mergeOne(m *yaml.Node) error {
	if err := c.tick(m); err != nil {
		return err
	}
	if m.Kind == yaml.MappingNode {
		return c.mapping(m, true)
	}
	return c.alias(m, func(target *yaml.Node) error {
		if err := c.tick(target); err != nil {
			return err
		}
		return c.mapping(target, true)
	})
}
