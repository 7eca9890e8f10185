package policies

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestParseConfigQuotesNoValue: whatever the file holds, an error names the
// line (and the key when it reads as one), never a value from the file.
func TestParseConfigQuotesNoValue(t *testing.T) {
	const secret = "ghp_Tok3nTok3nTok3nTok3nTok3nTok3nTok3n"
	cases := []struct{ name, src, want string }{
		{"string for a number", "version: " + secret + "\n", "line 1: cannot decode !!str into int"},
		{"string for a list", "version: 1\nrequire: " + secret + "\n", "line 2: cannot decode !!str into []string"},
		{"string in a map of numbers", "version: 1\nmin_score: {network: " + secret + "}\n", "line 2: cannot decode !!str into int"},
		{"unknown anchor", "version: *" + secret + "\n", "unknown anchor … referenced"},
		{"unclosed quote", "version: \"" + secret + "\n", "line 2: found unexpected end of stream"},
		{"bad indentation", "version: 1\n  bad: [" + secret + "\n", "line 2: mapping values are not allowed in this context"},
		{"a key that is not a word", "version: 1\n" + secret + ": 1\n", "line 2: unknown key"},
		{"a lowercase token as a key", "version: 1\nabcdef0123456789abcdef0123456789: 1\n", "line 2: unknown key"},
		{"a key twice", "version: 1\n" + secret + ": 1\n" + secret + ": 2\n", "line 3: key (a value not shown) defined twice (first at line 2)"},
		{"not a mapping", secret + "\n", "line 1: cannot decode !!str into policies.Config"},
		{"bad binary", "version: !!binary " + secret + "\n", "!!binary value contains invalid base64 data"},
		{"fail_on", "version: 1\nfail_on: " + secret + "\n", "fail_on (a value not shown) is not one of"},
		{"require", "version: 1\nrequire: [" + secret + "]\n", "require: (a value not shown) is not a property"},
		{"mode", "version: 1\nrules:\n  " + secret + ": {mode: " + secret + "}\n", "rules.(an id not shown).mode (a value not shown) must be"},
		{"expires", "version: 1\nwaivers:\n  - rule: x\n    reason: r\n    expires: " + secret + "\n", "waivers[0] (line 3): expires (a value not shown) is not a date"},
		{"shadow line", "root:$6$" + secret + ":19000:0:99999:7:::\n", "line 1: unknown key"},
		{"env file", "GITHUB_TOKEN=" + secret + "\nAWS_SECRET=" + secret + "\n", "cannot decode"},
		{"json credentials", `{"auths": {"ghcr.io": {"auth": "` + secret + `"}}}`, `unknown key "auths"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig("p.yaml", []byte(c.src))
			if err == nil {
				t.Fatal("accepted")
			}
			if strings.Contains(err.Error(), "Tok3n") || strings.Contains(err.Error(), "abcdef0123") {
				t.Errorf("the error quotes the file: %v", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

// TestParseConfigOneDocument: a second YAML document, empty or not, is
// refused at its line; its settings would otherwise be dropped unread.
func TestParseConfigOneDocument(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"version: 1\n---\nfail_on: none\n", "line 2: a second YAML document"},
		{"---\nversion: 1\n...\n---\n# more\nwaivers: []\n", "line 4: a second YAML document"},
		{"version: 1\n---\n", "line 2: a second YAML document"},
		{"version: 1\n---\nfail_on: [\n", "in a second YAML document"},
	} {
		if _, err := ParseConfig("p.yaml", []byte(c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
	if _, err := ParseConfig("p.yaml", []byte("---\nversion: 1\n...\n")); err != nil {
		t.Errorf("one document with markers: %v", err)
	}
}

// TestLoadConfigReadsOnlyRegularFiles: a FIFO, /dev/zero and a symlink
// (to a secret) are refused at once with the reason, nothing read.
func TestLoadConfigReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "shadow")
	if err := os.WriteFile(secret, []byte("root:$6$Tok3n:19000:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxConfigSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:                            "a named pipe (FIFO), not a regular file",
		"/dev/zero":                     "a device, not a regular file",
		link:                            "symlink not followed",
		big:                             "over the 1048576-byte limit",
		filepath.Join(dir, "none.yaml"): "no such file",
	} {
		start := time.Now()
		_, err := LoadConfig(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q naming the file", path, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "Tok3n") {
			t.Errorf("%s: the error quotes the file: %v", path, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", path, d)
		}
	}
}

// TestBaselineReadsOnlyRegularFiles: a baseline that is a FIFO or a
// symlink is refused at once, naming the file.
func TestBaselineReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "a named pipe (FIFO), not a regular file", link: "symlink not followed", "/dev/zero": "a device, not a regular file"} {
		start := time.Now()
		if err := ApplyBaseline(path, nil); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q naming the file", path, err, want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", path, d)
		}
	}
}
