package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestMarkdownEscapeHostile: a value stays text: no line of its own (a
// bare \r ends a CommonMark line too), no link, image, mention, emphasis,
// code or HTML, no table cell of its own.
func TestMarkdownEscapeHostile(t *testing.T) {
	for in, want := range map[string]string{
		"ok\r## Forged":                   `ok \#\# Forged`,
		"a\nb\u2028c\x1b[2Jd\u0085e\x9bf": "a b\u2028c \\[2Jd e\ufffdf",
		"[click](https://evil.example)":   `\[click\]\(https://evil.example\)`,
		"![x](https://e/p.png)":           `\!\[x\]\(https://e/p.png\)`,
		"cc @admin":                       "cc @\u200badmin",
		"*em* _em_ ~~s~~ $x$":             `\*em\* \_em\_ \~\~s\~\~ \$x\$`,
		"`code` <b>b</b>":                 "\\`code\\` &lt;b&gt;b&lt;/b&gt;",
		`a | b \ c`:                       `a \| b \\ c`,
		"plain text, 3 of 4: ok.":         "plain text, 3 of 4: ok.",
	} {
		if got := MarkdownEscape(in); got != want {
			t.Errorf("MarkdownEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := MarkdownCode("a`b|c\rd"); got != `a'b\|c d` {
		t.Errorf("MarkdownCode = %q", got)
	}
}

// TestPrintable: no control character, C1 or bidirectional override
// reaches a terminal, nor a byte that is not UTF-8.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b]0;pwned\x07b":  "a ]0;pwned b",
		"c\x9bd\x7fe\u202ef":  "c\ufffdd e f",
		"g\u0085h\u009bi\tj":  "g h i j",
		"plain, ünïcode ok ✓": "plain, ünïcode ok ✓",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMarkdownHostileFile: a file name with a backtick or a line break
// cannot end its code span and start Markdown of its own.
func TestMarkdownHostileFile(t *testing.T) {
	r := sample()
	r.Errors = []model.Error{{File: "x`[y](https://evil.example)`\r# z.yaml", Message: "m"}}
	var b bytes.Buffer
	if err := (Markdown{}).Write(&b, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "`[y]") || strings.Contains(b.String(), "\r") {
		t.Errorf("the file name breaks out of its code span:\n%s", b.String())
	}
}
