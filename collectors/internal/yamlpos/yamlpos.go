// Package yamlpos finds the line a go.yaml.in/yaml/v3 error is about, for
// the collectors that parse YAML (compose, workflows, Kubernetes): the
// library says it only in the message, and not always.
package yamlpos

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/textpos"
)

var lineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// ErrLine is the 1-based line of err, a yaml.v3 error met reading data.
// Where the message names no line, the line of the text it quotes (an
// unknown anchor) is taken.
//
// yaml.v3 writes "line N: " from 0-based marks and leaves it out when the
// mark is 0, so an error without a line is about the first line; except a
// reader error (bad UTF-8, a control character), which has no mark at all:
// its line is the first offending byte's.
func ErrLine(err error, data []byte) int {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		if n, _ := strconv.Atoi(m[1]); n > 0 {
			return n
		}
	}
	if n := collectors.QuotedLine(data, err); n > 0 {
		return n // "unknown anchor 'x' referenced" has no line
	}
	if readerError(msg) {
		if off := badByte(data); off >= 0 {
			return textpos.New(data).Line(off)
		}
	}
	return 1
}

func readerError(msg string) bool {
	for _, s := range []string{"UTF-8", "UTF-16", "control characters", "Unicode character", "input error"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// badByte is the offset of the first byte YAML does not accept: invalid
// UTF-8, or a character outside YAML's printable set (tab, line breaks,
// and everything from space up except DEL, C1 controls but NEL, surrogates
// and U+FFFE/U+FFFF). -1 when there is none.
func badByte(data []byte) int {
	for off := 0; off < len(data); {
		r, size := utf8.DecodeRune(data[off:])
		if (r == utf8.RuneError && size <= 1) || !printable(r) {
			return off
		}
		off += size
	}
	return -1
}

func printable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return false
	case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
		return false
	}
	return true
}
