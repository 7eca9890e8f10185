// Package jsonpos parses JSON (and JSONC: comments, trailing commas) into a
// small tree whose every key and value knows its line, for the collectors of
// agent settings and MCP configs (claude, gemini, cursor, mcp).
package jsonpos

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/tailscale/hujson"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
)

// MaxDepth bounds nesting: hujson parses recursively without a limit, and a
// file of a few megabytes of "[" would exhaust the goroutine stack, which is
// a fatal error no recover can catch. Real settings nest less than ten deep.
const MaxDepth = 256

// Kind is a JSON value's type.
type Kind int

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

var kindNames = [...]string{"null", "boolean", "number", "string", "object", "array"}

func (k Kind) String() string { return kindNames[k] }

// Value is a parsed JSON value with the line it starts on.
type Value struct {
	Kind    Kind
	Line    int
	Str     string // String: unescaped text; Number: the literal
	Bool    bool
	Members []Member // Object, in file order (duplicates kept)
	Elems   []*Value // Array
}

// Member is one key of an object with the line of the key.
type Member struct {
	Key   string
	Line  int
	Value *Value
}

// Get returns the member named key, or nil. With duplicate keys the last
// wins, as in JSON.parse, which every agent CLI here uses.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Path follows keys through nested objects; nil when any step is missing.
func (v *Value) Path(keys ...string) *Value {
	for _, k := range keys {
		v = v.Get(k)
	}
	return v
}

// Strings returns the string elements of an array (others are skipped) and
// whether v was an array at all.
func (v *Value) Strings() ([]*Value, bool) {
	if v == nil || v.Kind != Array {
		return nil, false
	}
	var out []*Value
	for _, e := range v.Elems {
		if e.Kind == String {
			out = append(out, e)
		}
	}
	return out, true
}

// Parse parses data. A syntax error or excessive nesting returns a
// *collectors.ParseError naming the line.
func Parse(data []byte) (*Value, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := textpos.New(data)
	if off, ok := tooDeep(data); !ok {
		return nil, &collectors.ParseError{Line: lines.Line(off), Err: fmt.Errorf("parse json: nesting deeper than %d", MaxDepth)}
	}
	hv, err := hujson.Parse(data)
	if err != nil {
		inner := errors.Unwrap(err)
		if inner == nil {
			inner = err
		}
		return nil, &collectors.ParseError{Line: errLine(err), Err: fmt.Errorf("parse json: %w", inner)}
	}
	return convert(&hv, lines), nil
}

var errLineRE = regexp.MustCompile(`^hujson: line (\d+),`)

// errLine reads the line hujson puts in its message (it has no error type).
func errLine(err error) int {
	if m := errLineRE.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func convert(hv *hujson.Value, lines textpos.Lines) *Value {
	v := &Value{Line: lines.Line(hv.StartOffset)}
	switch t := hv.Value.(type) {
	case *hujson.Object:
		v.Kind = Object
		for i := range t.Members {
			m := &t.Members[i]
			key, _ := m.Name.Value.(hujson.Literal)
			v.Members = append(v.Members, Member{Key: key.String(), Line: lines.Line(m.Name.StartOffset), Value: convert(&m.Value, lines)})
		}
	case *hujson.Array:
		v.Kind = Array
		for i := range t.Elements {
			v.Elems = append(v.Elems, convert(&t.Elements[i], lines))
		}
	case hujson.Literal:
		switch t.Kind() {
		case '"':
			v.Kind, v.Str = String, t.String()
		case 't', 'f':
			v.Kind, v.Bool = Bool, t.Bool()
		case '0':
			v.Kind, v.Str = Number, string(t)
		default:
			v.Kind = Null
		}
	}
	return v
}

// tooDeep scans brackets outside strings and comments; it reports the
// offset of the first bracket past MaxDepth.
func tooDeep(b []byte) (int, bool) {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
			} else if i+1 < len(b) && b[i+1] == '*' {
				end := bytes.Index(b[i+2:], []byte("*/"))
				if end < 0 {
					return 0, true // unterminated comment: the parser reports it
				}
				i += end + 3
			}
		case '[', '{':
			depth++
			if depth > MaxDepth {
				return i, false
			}
		case ']', '}':
			depth--
		}
	}
	return 0, true
}
