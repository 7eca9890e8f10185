package codex

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// keyLines maps every key path of a TOML document to the line its key is
// written on. Paths are key parts joined by sep so that quoted keys with dots
// ("mcp_servers.\"my.server\"") stay unambiguous.
//
// Why pelletier/go-toml/v2's unstable parser: BurntSushi/toml's MetaData
// keeps key positions private, and rescanning the text for keys would have to
// re-implement TOML's dotted keys, inline tables and multi-line strings. The
// unstable AST gives each key its byte range, which is all we need; values
// are still decoded by the same module's validating decoder (duplicate keys,
// table redefinitions) so the two can never disagree about the document.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var prefix []string
	arrayIdx := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, line := keyOf(&p, e.Key())
			prefix = keys
			if e.Kind == unstable.ArrayTable {
				k := join(keys)
				prefix = append(keys, "#"+strconv.Itoa(arrayIdx[k]))
				arrayIdx[k]++
			}
			setLine(lines, prefix, line)
		case unstable.KeyValue:
			walkKV(&p, e, prefix, lines)
		}
	}
	// A syntax error leaves the map partial; the decoder reports the error.
	return lines
}

func walkKV(p *unstable.Parser, kv *unstable.Node, prefix []string, lines map[string]int) {
	keys, line := keyOf(p, kv.Key())
	path := append(append([]string{}, prefix...), keys...)
	setLine(lines, path, line)
	if v := kv.Value(); v != nil && v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				walkKV(p, c, path, lines)
			}
		}
	}
}

// setLine records path and its parents (a dotted key a.b.c = 1 also
// defines a and a.b on that line), keeping the first line seen.
func setLine(lines map[string]int, path []string, line int) {
	for i := 1; i <= len(path); i++ {
		k := join(path[:i])
		if _, ok := lines[k]; !ok {
			lines[k] = line
		}
	}
}

func keyOf(p *unstable.Parser, it unstable.Iterator) ([]string, int) {
	var keys []string
	line := 0
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		if line == 0 {
			line = p.Shape(n.Raw).Start.Line
		}
	}
	return keys, line
}

const sep = "\x00"

func join(keys []string) string { return strings.Join(keys, sep) }
