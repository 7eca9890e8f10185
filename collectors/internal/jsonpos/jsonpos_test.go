package jsonpos

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

func TestParseLines(t *testing.T) {
	src := "\xef\xbb\xbf{\n  // comment\n  \"a\": {\"b\": [1,\n    \"x\\n\", true, null]},\n  \"a\": 2, /* dup */\n}\n"
	v, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Value{Kind: Object, Line: 1, Members: []Member{
		{Key: "a", Line: 3, Value: &Value{Kind: Object, Line: 3, Members: []Member{
			{Key: "b", Line: 3, Value: &Value{Kind: Array, Line: 3, Elems: []*Value{
				{Kind: Number, Line: 3, Str: "1"},
				{Kind: String, Line: 4, Str: "x\n"},
				{Kind: Bool, Line: 4, Bool: true},
				{Kind: Null, Line: 4},
			}}},
		}}},
		{Key: "a", Line: 5, Value: &Value{Kind: Number, Line: 5, Str: "2"}},
	}}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if got := v.Get("a"); got.Str != "2" {
		t.Errorf("Get with duplicate keys = %+v, want the last", got)
	}
	if v.Path("a", "b") != nil || v.Path("x") != nil {
		t.Error("Path through a number must be nil")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
	}{
		{"missing comma", "{\n\"a\": 1\n\"b\": 2}", 3},
		{"unterminated string", "{\"a\": \"x", 1},
		{"bad literal", "\n\n[tru]", 3},
		{"deep arrays", strings.Repeat("[", MaxDepth+1), 1},
		{"deep after string", "[\"]]]]\",\n" + strings.Repeat("{\"a\":", MaxDepth+1), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var pe *collectors.ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line {
				t.Errorf("err = %v, want ParseError at line %d", err, tt.line)
			}
		})
	}
	if _, err := Parse([]byte(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))); err != nil {
		t.Errorf("nesting at the limit: %v", err)
	}
}
