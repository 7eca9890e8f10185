package gitconfig

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// entry is one variable of a git config file.
type entry struct {
	section    string // lower case
	subsection string // as written for [s "sub"]; lower case for the deprecated [s.sub]
	name       string // lower case
	value      string // unquoted, unescaped
	hasValue   bool   // false for a bare `name` (boolean true)
	line       int    // where the variable starts
	header     int    // line of its section header
}

// parser follows git's own config.c (parse_file, get_base_var,
// get_value, parse_value) so a file reads here the way git reads it.
type parser struct {
	data []byte
	pos  int
	line int
}

const eof = -1

// next returns the next byte, folding CRLF to LF like git does, and counts
// lines.
func (p *parser) next() int {
	if p.pos >= len(p.data) {
		p.pos++ // so that back() after EOF is harmless
		return eof
	}
	c := int(p.data[p.pos])
	p.pos++
	if c == '\r' && p.pos < len(p.data) && p.data[p.pos] == '\n' {
		p.pos++
		c = '\n'
	}
	if c == '\n' {
		p.line++
	}
	return c
}

// fail reports a syntax error at line: where the header or variable being
// read starts, not where the scan stopped (a newline has moved on already).
func fail(line int, format string, args ...any) error {
	return &collectors.ParseError{Line: line, Err: fmt.Errorf("parse git config: "+format, args...)}
}

// parse reads every variable of data. On a syntax error it returns the
// variables read so far with a *collectors.ParseError; git itself refuses
// the whole file then.
func parse(data []byte) ([]entry, error) {
	p := &parser{data: data, line: 1}
	if strings.HasPrefix(string(data), "\xef\xbb\xbf") {
		p.pos = 3
	}
	var out []entry
	section, subsection, header := "", "", 0
	for {
		c := p.next()
		switch {
		case c == eof:
			return out, nil
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			header = p.line
			var err error
			if section, subsection, err = p.header(); err != nil {
				return out, err
			}
		case isAlpha(c):
			if section == "" {
				return out, fail(p.line, "variable outside a section")
			}
			e, err := p.variable(c)
			if err != nil {
				return out, err
			}
			e.section, e.subsection, e.header = section, subsection, header
			out = append(out, e)
		default:
			return out, fail(p.line, "unexpected %q", rune(c))
		}
	}
}

func (p *parser) skipLine() {
	for c := p.next(); c != '\n' && c != eof; c = p.next() {
	}
}

// header reads a section header after its '['.
func (p *parser) header() (section, subsection string, err error) {
	line := p.line
	var b strings.Builder
	for {
		c := p.next()
		switch {
		case c == ']':
			section = strings.ToLower(b.String())
			if section == "" {
				return "", "", fail(line, "empty section name")
			}
			// Deprecated [section.subsection]: git lower-cases it all.
			if s, sub, ok := strings.Cut(section, "."); ok {
				return s, sub, nil
			}
			return section, "", nil
		case c == ' ' || c == '\t':
			if b.Len() == 0 {
				return "", "", fail(line, "empty section name")
			}
			sub, err := p.subsection(line)
			return strings.ToLower(b.String()), sub, err
		case isAlpha(c) || isDigit(c) || c == '-' || c == '.':
			b.WriteByte(byte(c))
		default:
			return "", "", fail(line, "bad section header")
		}
	}
}

// subsection reads ` "name"]` after the section name. Inside the quotes a
// backslash escapes any character but a newline.
func (p *parser) subsection(line int) (string, error) {
	c := p.next()
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	if c != '"' {
		return "", fail(line, "bad section header: subsection must be quoted")
	}
	var b strings.Builder
	for {
		c = p.next()
		switch c {
		case eof, '\n':
			return "", fail(line, "unterminated subsection name")
		case '"':
			if p.next() != ']' {
				return "", fail(line, "bad section header: missing ]")
			}
			return b.String(), nil
		case '\\':
			c = p.next()
			if c == eof || c == '\n' {
				return "", fail(line, "unterminated subsection name")
			}
		}
		b.WriteByte(byte(c))
	}
}

// variable reads `name [= value]` from its first character.
func (p *parser) variable(first int) (entry, error) {
	e := entry{line: p.line}
	var b strings.Builder
	b.WriteByte(byte(first))
	c := p.next()
	for isAlpha(c) || isDigit(c) || c == '-' {
		b.WriteByte(byte(c))
		c = p.next()
	}
	e.name = strings.ToLower(b.String())
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	if c == '\n' || c == eof {
		return e, nil
	}
	if c != '=' {
		return e, fail(e.line, "bad config line: expected = after %q", e.name)
	}
	v, err := p.value(e.line)
	e.value, e.hasValue = v, true
	return e, err
}

var errEscape = errors.New("bad escape")

// value reads a value up to its end of line: quotes group, unquoted
// whitespace runs become spaces and trailing whitespace is dropped, a
// backslash-newline continues the value on the next line.
func (p *parser) value(line int) (string, error) {
	var b strings.Builder
	quoted, spaces := false, 0
	for {
		c := p.next()
		if c == eof || c == '\n' {
			if quoted {
				return b.String(), fail(line, "unterminated quote")
			}
			return b.String(), nil
		}
		if !quoted && (c == ';' || c == '#') {
			p.skipLine()
			return b.String(), nil
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			if b.Len() > 0 {
				spaces++
			}
			continue
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			switch c = p.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return b.String(), fail(line, "%w in value", errEscape)
			}
		case '"':
			quoted = !quoted
			continue
		}
		b.WriteByte(byte(c))
	}
}

func isAlpha(c int) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c int) bool { return c >= '0' && c <= '9' }
