package mcp

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
)

// maxDepth bounds nesting before hujson, whose recursive descent would
// otherwise exhaust the goroutine stack on "[[[[…" (a fatal error that no
// recover catches) instead of failing.
const maxDepth = 512

// doc is a parsed JSONC file with its line index.
type doc struct {
	root  hujson.Value
	lines textpos.Lines
}

var hujsonErrRE = regexp.MustCompile(`^hujson: line (\d+), column \d+: `)

// parseJSONC parses JSON with comments and trailing commas (VS Code's
// flavour) keeping byte offsets, which line() turns into lines.
func parseJSONC(data []byte) (*doc, error) {
	if line, ok := tooDeep(data); !ok {
		return nil, &collectors.ParseError{Line: line, Err: fmt.Errorf("parse json: nested deeper than %d levels", maxDepth)}
	}
	v, err := hujson.Parse(data)
	if err != nil {
		msg, line := err.Error(), 0
		if m := hujsonErrRE.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):]
		}
		return nil, &collectors.ParseError{Line: line, Err: fmt.Errorf("parse json: %s", msg)}
	}
	d := &doc{root: v, lines: textpos.New(data)}
	return d, nil
}

// line is the 1-based line of a value's first byte.
func (d *doc) line(v *hujson.Value) int {
	return d.lines.Line(v.StartOffset)
}

// tooDeep scans brackets outside strings and comments.
func tooDeep(data []byte) (int, bool) {
	depth, line := 0, 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\n':
			line++
		case c == '"':
			for i++; i < len(data) && data[i] != '"' && data[i] != '\n'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			for i += 2; i+1 < len(data) && (data[i] != '*' || data[i+1] != '/'); i++ {
				if data[i] == '\n' {
					line++
				}
			}
			i++
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return line, false
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return 0, true
}

// member is one key of an object with its value.
type member struct {
	name  string
	key   *hujson.Value
	value *hujson.Value
}

// members lists an object's members; nil for anything else.
func members(v *hujson.Value) []member {
	if v == nil {
		return nil
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	out := make([]member, 0, len(obj.Members))
	for i := range obj.Members {
		m := &obj.Members[i]
		name, _ := m.Name.Value.(hujson.Literal)
		out = append(out, member{name: name.String(), key: &m.Name, value: &m.Value})
	}
	return out
}

// field returns the value of an object's key (the last one when repeated,
// as encoding/json does), or nil.
func field(v *hujson.Value, name string) *hujson.Value {
	var found *hujson.Value
	for _, m := range members(v) {
		if m.name == name {
			found = m.value
		}
	}
	return found
}

// elements lists an array's values; nil for anything else.
func elements(v *hujson.Value) []*hujson.Value {
	if v == nil {
		return nil
	}
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		return nil
	}
	out := make([]*hujson.Value, 0, len(arr.Elements))
	for i := range arr.Elements {
		out = append(out, &arr.Elements[i])
	}
	return out
}

// text returns a string's value, a number's or boolean's JSON text, and ""
// for null, objects, arrays and absent values.
func text(v *hujson.Value) string {
	if v == nil {
		return ""
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() == 'n' {
		return ""
	}
	return lit.String()
}

// boolean reads a JSON boolean.
func boolean(v *hujson.Value) (value, ok bool) {
	if v == nil {
		return false, false
	}
	lit, isLit := v.Value.(hujson.Literal)
	if !isLit || (lit.Kind() != 't' && lit.Kind() != 'f') {
		return false, false
	}
	return lit.Bool(), true
}
