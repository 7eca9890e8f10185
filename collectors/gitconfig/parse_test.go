package gitconfig

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []entry
	}{
		{"sections, subsections, bare booleans, comments", `# comment
; another
[Core]
	bare = false ; trailing comment
	IgnoreCase
[remote "Origin"] # comment after header
	url = https://example.com/r.git
`, []entry{
			{section: "core", name: "bare", value: "false", hasValue: true, line: 4, header: 3},
			{section: "core", name: "ignorecase", line: 5, header: 3},
			{section: "remote", subsection: "Origin", name: "url", value: "https://example.com/r.git", hasValue: true, line: 7, header: 6},
		}},
		{"quotes, escapes, inner whitespace, continuation", "[a]\n" +
			"  k1 = \"  spaced  \"  tail  \n" +
			"  k2 = x \"#not comment\" y # comment\n" +
			"  k3 = a\\tb\\\\c\\\"d\\ne\n" +
			"  k4 = first \\\n    second\n" +
			"  k5 =\n" +
			"  k6 = one\t\ttwo\n", []entry{
			{section: "a", name: "k1", value: "  spaced    tail", hasValue: true, line: 2, header: 1},
			{section: "a", name: "k2", value: "x #not comment y", hasValue: true, line: 3, header: 1},
			{section: "a", name: "k3", value: "a\tb\\c\"d\ne", hasValue: true, line: 4, header: 1},
			{section: "a", name: "k4", value: "first     second", hasValue: true, line: 5, header: 1},
			{section: "a", name: "k5", value: "", hasValue: true, line: 7, header: 1},
			{section: "a", name: "k6", value: "one  two", hasValue: true, line: 8, header: 1},
		}},
		{"subsection escapes, deprecated form, header and variable on one line, CRLF, BOM", "\xef\xbb\xbf[x \"a\\\"b\\\\c\\d\"]\r\n\tk = v\r\n[Http.Proxy.Example] sslVerify = false\n", []entry{
			{section: "x", subsection: `a"b\cd`, name: "k", value: "v", hasValue: true, line: 2, header: 1},
			{section: "http", subsection: "proxy.example", name: "sslverify", value: "false", hasValue: true, line: 3, header: 3},
		}},
		{"empty file", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(entry{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantLine int
	}{
		{"variable outside a section", "\nkey = v\n", 2},
		{"unterminated quote", "[a]\n k = \"open\n", 2},
		{"bad escape", "[a]\n\n k = a\\qb\n", 3},
		{"missing equals", "[a]\n k v\n", 2},
		{"bad section name", "[a b\n", 1},
		{"unquoted subsection", "[a b]\n", 1},
		{"unterminated subsection", "[a \"b\n\"]\n", 1},
		{"missing bracket after subsection", "[a \"b\" ]\n", 1},
		{"empty section", "[]\n", 1},
		{"binary junk", "\x00\x01\xff\xfe", 1},
		{"bad key start", "[a]\n -k = v\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse([]byte(tt.in))
			var pe *collectors.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("parse() = %v, want *collectors.ParseError", err)
			}
			if pe.Line != tt.wantLine {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tt.wantLine, err)
			}
		})
	}
}
