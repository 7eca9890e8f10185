package kubernetes

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
)

// raw converts an object to plain JSON-able values for users' own rules,
// with merge keys applied and secrets taken out: no secret may reach the
// rule input. Every string is run through secrets.Redact, a value under a
// sensitive name ({name: X, value: Y} env entries included) that
// secrets.DetectNamed flags is replaced whole, and a Secret's data and
// stringData values are dropped whatever they hold.
func raw(n *yaml.Node, isSecret bool) any {
	return rawValue(n, isSecret, 0)
}

func rawValue(n *yaml.Node, isSecret bool, depth int) any {
	n = deref(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		es := entries(n)
		m := make(map[string]any, len(es))
		name := str(get(n, "name"))
		for _, e := range es {
			k := e.key.Value
			if isSecret && depth == 0 && (k == "data" || k == "stringData") {
				m[k] = redactedKeys(e.val)
				continue
			}
			m[k] = rawValue(e.val, isSecret, depth+1)
			if s, ok := m[k].(string); ok && s == str(e.val) {
				// No known token format in it: a high-entropy value under a
				// sensitive name ({name: API_KEY, value: …} too) still is one.
				n := k
				if k == "value" && name != "" {
					n = name
				}
				if secrets.SensitiveName(n) {
					if r := secrets.DetectNamed(n, s); r != nil {
						m[k] = marker(r.Kind, r.Fingerprint)
					}
				}
			}
		}
		return m
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, rawValue(c, isSecret, depth+1))
		}
		return out
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil
}

// scalar converts a scalar by its resolved tag.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		b, _ := boolean(n)
		return b
	case "!!int":
		if v, ok := integer(n); ok {
			return v
		}
	case "!!float":
		if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return v
		}
	}
	return redact(n.Value)
}

// minSecretLen is shorter than any credential secrets recognises: most
// scalars of a manifest (names, paths, ports) are shorter and skip the scan,
// which runs every detector over the text.
const minSecretLen = 8

func redact(s string) string {
	if len(s) < minSecretLen {
		return s
	}
	return secrets.Redact(s)
}

// redactedKeys keeps a Secret's keys and drops its values.
func redactedKeys(n *yaml.Node) map[string]any {
	m := map[string]any{}
	for _, e := range entries(n) {
		m[e.key.Value] = "[REDACTED]"
	}
	return m
}

func marker(kind, fp string) string {
	return "[REDACTED:" + kind + ":" + fp + "]"
}
