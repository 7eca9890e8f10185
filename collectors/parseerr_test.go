package collectors

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSafeReason: parsers' messages keep their reason and lose the input
// they quote (these are the messages the parsers this project uses write).
func TestSafeReason(t *testing.T) {
	for msg, want := range map[string]string{
		"yaml: unknown anchor 'hunter2hunter2' referenced":                                 "unknown anchor referenced",
		"yaml: line 3: did not find expected ',' or ']'":                                   "did not find expected ',' or ']'",
		"yaml: unmarshal errors:\n  line 4: cannot unmarshal !!str `s3cr3tvalue` into int": "unmarshal errors: cannot unmarshal !!str into int",
		"hujson: line 1, column 11: invalid literal: ghpXXXXXXXX":                          "invalid literal",
		"invalid character 'g' looking for beginning of value":                             "invalid character looking for beginning of value",
		"toml: unexpected character U+0067 'g' at start of value":                          "unexpected character at start of value",
		"toml: key model is already defined":                                               "key is already defined",
		"parse poetry.lock: expected value but found \"abc123\" instead":                   "parse poetry.lock: expected value but found instead",
		"parse go.mod: unknown directive: hunter2hunter2":                                  "parse go.mod: unknown directive",
		"parse git config: bad config line: expected = after \"hunter2\"":                  "parse git config: bad config line: expected = after",
		"dockerfile parse error on line 3: unknown instruction: HUNTER2HUNTER2":            "dockerfile parse error on unknown instruction",
	} {
		col, got := SafeReason(errors.New(msg))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SafeReason(%q) (-want +got):\n%s", msg, diff)
		}
		if msg == "hujson: line 1, column 11: invalid literal: ghpXXXXXXXX" && col != 11 {
			t.Errorf("column %d, want 11", col)
		}
	}
	pe := &ParseError{Line: 3, Err: errors.New("yaml: line 3: mapping values are not allowed in this context")}
	if got := pe.Error(); got != "line 3: mapping values are not allowed in this context" {
		t.Errorf("ParseError = %q", got)
	}
}
