package compose

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// maxMergeDepth bounds chains of merge keys (<<: *a where a merges b …);
// real compose files use one or two levels.
const maxMergeDepth = 32

// entry is one effective key/value pair of a mapping, after aliases and
// merge keys are resolved; key keeps the line where the pair is written.
type entry struct {
	key, val *yaml.Node
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxMergeDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// mapping returns the pairs of a mapping node with merge keys expanded as
// YAML and compose define them: keys written in the mapping win over merged
// ones, and earlier merged mappings win over later ones. Pairs tagged
// !reset (compose's way to drop an inherited value) are left out.
func mapping(n *yaml.Node) []entry {
	return mappingDepth(resolve(n), 0)
}

func mappingDepth(n *yaml.Node, depth int) []entry {
	if n == nil || n.Kind != yaml.MappingNode || depth > maxMergeDepth {
		return nil
	}
	explicit := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolve(n.Content[i]); k != nil && !isMerge(k) {
			explicit[k.Value] = true
		}
	}
	seen := map[string]bool{}
	var out []entry
	add := func(e entry) {
		if seen[e.key.Value] {
			return
		}
		seen[e.key.Value] = true
		if v := resolve(e.val); v != nil && v.Tag != "!reset" {
			out = append(out, entry{key: e.key, val: v})
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		if k == nil {
			continue
		}
		if !isMerge(k) {
			add(entry{key: k, val: n.Content[i+1]})
			continue
		}
		v := resolve(n.Content[i+1])
		if v == nil {
			continue
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			for _, e := range mappingDepth(resolve(src), depth+1) {
				if !explicit[e.key.Value] {
					add(e)
				}
			}
		}
	}
	return out
}

func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "!!merge" || k.Tag == "")
}

// items returns the resolved elements of a sequence node.
func items(n *yaml.Node) []*yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(n.Content))
	for _, it := range n.Content {
		if it = resolve(it); it != nil {
			out = append(out, it)
		}
	}
	return out
}

// scalar returns the text of a scalar node; null is not a value.
func scalar(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// boolean reads a YAML boolean (or a string holding one, as left by
// interpolation); anything else, e.g. an unresolved ${VAR}, is unknown.
func boolean(n *yaml.Node) (bool, bool) {
	s, ok := scalar(n)
	if !ok {
		return false, false
	}
	b, err := strconv.ParseBool(s)
	return b, err == nil
}

// get returns the value of key in a resolved mapping's entries.
func get(es []entry, key string) *yaml.Node {
	for _, e := range es {
		if e.key.Value == key {
			return e.val
		}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "a scalar" // not its value: errors[] never quotes the file
	case yaml.MappingNode:
		return "a mapping"
	}
	return "not a mapping"
}
