package devcontainer

import (
	"strings"

	"github.com/tailscale/hujson"
)

// member is one name/value pair of a JSON object with the name's position.
type member struct {
	name string
	val  *hujson.Value
	off  int // offset of the name
}

// members lists an object's pairs; a name given twice keeps only its last
// value, as encoding/json and the devcontainer CLI do.
func members(v *hujson.Value) []member {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	last := map[string]int{}
	var out []member
	for i := range obj.Members {
		m := &obj.Members[i]
		name, ok := str(&m.Name)
		if !ok {
			continue
		}
		if j, dup := last[name]; dup {
			out[j].val = &m.Value
			continue
		}
		last[name] = len(out)
		out = append(out, member{name: name, val: &m.Value, off: m.Name.StartOffset})
	}
	return out
}

// elems lists an array's values.
func elems(v *hujson.Value) []*hujson.Value {
	arr, ok := v.Value.(*hujson.Array)
	if !ok {
		return nil
	}
	out := make([]*hujson.Value, len(arr.Elements))
	for i := range arr.Elements {
		out[i] = &arr.Elements[i]
	}
	return out
}

// str returns a JSON string's text.
func str(v *hujson.Value) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

// text returns a string or a number as written (ports are either).
func text(v *hujson.Value) (string, bool) {
	if s, ok := str(v); ok {
		return s, true
	}
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '0' {
		return string(lit), true
	}
	return "", false
}

func boolean(v *hujson.Value) (bool, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || (lit.Kind() != 't' && lit.Kind() != 'f') {
		return false, false
	}
	return lit.Bool(), true
}

// strings returns the strings of an array, or the one string given alone.
func stringsOf(v *hujson.Value) []*hujson.Value {
	if _, ok := str(v); ok {
		return []*hujson.Value{v}
	}
	var out []*hujson.Value
	for _, e := range elems(v) {
		if _, ok := str(e); ok {
			out = append(out, e)
		}
	}
	return out
}

func kindName(v *hujson.Value) string {
	switch v.Value.Kind() {
	case '[':
		return "an array"
	case '"':
		return "a string" // not its value: errors[] never quotes the file
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '0':
		return "a number"
	}
	return "not an object"
}

// localEnv returns the host variable a value forwards with
// ${localEnv:NAME} or ${localEnv:NAME:default}, or "".
func localEnv(v string) string {
	const open = "${localEnv:"
	i := strings.Index(v, open)
	if i < 0 {
		return ""
	}
	rest := v[i+len(open):]
	end := strings.IndexAny(rest, ":}")
	if end <= 0 {
		return ""
	}
	return rest[:end]
}
