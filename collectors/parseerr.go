package collectors

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
)

// ParseError is a malformed file: collectors return it so errors[] can name
// the line (and the column, when the parser gives one).
//
// Its text never quotes the file: parsers put the input they choke on in
// their messages (YAML's "unknown anchor 'ghp_…' referenced", hujson's
// "invalid literal: …", TOML's "unexpected character U+0067 'g'", a
// Dockerfile's "unknown instruction: …"), and the line that breaks a
// configuration file is as likely as any other to hold a secret. Error
// keeps the reason and the position; SafeReason tells how.
type ParseError struct {
	Line, Col int
	Err       error
}

func (e *ParseError) Error() string {
	col, reason := SafeReason(e.Err)
	if e.Col > 0 {
		col = e.Col
	}
	switch {
	case e.Line > 0 && col > 0:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, col, reason)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, reason)
	}
	return reason
}

func (e *ParseError) Unwrap() error { return e.Err }

var (
	// The positions parsers write into their messages; ParseError says
	// them once.
	positionRE = regexp.MustCompile(`(?:\b(?:yaml|hujson|toml|json): )?\bline (\d+)(?:, column (\d+))?: ?`)
	// A parser's name after ours ("parse yaml: yaml: …") or alone.
	parserRE = regexp.MustCompile(`(^|: )(?:yaml|hujson|toml): `)
	// Quoted input: '…', "…", `…`. A quoted one- or two-character
	// punctuation mark (expecting ',' or '}') is the parser's, and stays.
	quotedRE = regexp.MustCompile("'[^'\\n]*'|\"[^\"\\n]*\"|`[^`\\n]*`")
	// U+0067: the character, spelt as a code point.
	codePointRE = regexp.MustCompile(`U\+[0-9A-Fa-f]{4,6}`)
	// Unquoted input after a label: "invalid literal: ghp_…", "unknown
	// directive: …", "key model is already defined".
	labelRE = regexp.MustCompile(`(?i)\b(invalid literal|unknown instruction|unknown directive|unknown command|invalid value|unexpected token|invalid key|invalid number)(?::| ) *[^\s,;()]+`)
	keyRE   = regexp.MustCompile(`\bkey \S+ (is already defined|has already been defined)`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// SafeReason returns an error's text fit for errors[]: the parsers' reasons
// and our own wording, without any text of the input, and the column the
// message named (0 when none). Secrets that survived anyway are redacted.
func SafeReason(err error) (col int, reason string) {
	if err == nil {
		return 0, ""
	}
	msg := err.Error()
	if m := positionRE.FindStringSubmatch(msg); m != nil && m[2] != "" {
		col, _ = strconv.Atoi(m[2])
	}
	msg = positionRE.ReplaceAllString(msg, "")
	msg = parserRE.ReplaceAllString(msg, "$1")
	msg = quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		if len(inner) <= 2 && !strings.ContainsFunc(inner, func(r rune) bool {
			return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9' || r >= 0x80
		}) {
			return q
		}
		return ""
	})
	msg = codePointRE.ReplaceAllString(msg, "")
	msg = labelRE.ReplaceAllString(msg, "$1")
	msg = keyRE.ReplaceAllString(msg, "key $1")
	msg = strings.TrimSpace(spaceRE.ReplaceAllString(msg, " "))
	msg = strings.ReplaceAll(msg, " :", ":")
	msg = strings.ReplaceAll(msg, "parsing string: unexpected EOF", "unterminated string")
	return col, secrets.Redact(msg)
}

// Message is the errors[] text of a collector's error: a ParseError's
// position and reason, or any other error's SafeReason.
func Message(err error) (line int, msg string) {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Line, pe.Error()
	}
	_, msg = SafeReason(err)
	return 0, msg
}

// QuotedLine finds the line a parser's message points at without saying
// it: yaml.v3 reports "unknown anchor 'x' referenced" and "cannot decode
// !!str `x` as a !!int" without a line. It looks for the first quoted text
// of the message in data (as *x for an alias) and returns its line, 0 when
// not found. The quoted text is only searched for, never shown.
func QuotedLine(data []byte, err error) int {
	if err == nil {
		return 0
	}
	m := quotedRE.FindString(err.Error())
	if len(m) < 3 {
		return 0
	}
	needle := []byte(m[1 : len(m)-1])
	if strings.Contains(err.Error(), "anchor") {
		if i := bytes.Index(data, append([]byte("*"), needle...)); i >= 0 {
			return 1 + bytes.Count(data[:i], []byte("\n"))
		}
	}
	if i := bytes.Index(data, needle); i >= 0 {
		return 1 + bytes.Count(data[:i], []byte("\n"))
	}
	return 0
}
