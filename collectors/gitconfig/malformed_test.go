package gitconfig

import (
	"context"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestMatch(t *testing.T) {
	for p, want := range map[string]bool{
		".git/config": true, "sub/mod/.git/config": true, ".gitconfig": true, "home/agent/.gitconfig": true,
		"team.gitconfig": true, "config": false, "git/config": false, ".gitconfig.local": false, ".gitmodules": false,
	} {
		if got := (Collector{}).Match(p); got != want {
			t.Errorf("Match(%q) = %v, want %v", p, got, want)
		}
	}
}

// A malformed file is reported with its line, and the variables read before
// the error still count: their tokens are on disk whatever git thinks.
func TestCollectMalformed(t *testing.T) {
	in := "[remote \"origin\"]\n\turl = https://u:" + ghp + "@h/r\n[broken\n"
	doc := &model.Document{}
	err := Collector{}.Collect(context.Background(), ".git/config", []byte(in), doc)
	var pe *collectors.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Fatalf("Collect() = %v, want a ParseError at line 3", err)
	}
	if len(doc.Credentials) != 1 || len(doc.GitConfigs) != 1 || len(doc.GitConfigs[0].CredentialURLs) != 1 {
		t.Errorf("facts before the error lost: %+v %+v", doc.GitConfigs, doc.Credentials)
	}
}

func FuzzCollect(f *testing.F) {
	f.Add([]byte("[a \"b\\\"c\"]\n k = \"x\\\n y\" ; c\n"))
	f.Add([]byte("[http]\n extraheader = AUTHORIZATION: basic " + b64("x-access-token:abc") + "\n"))
	f.Add([]byte("[url \"https://a:b@c/?token=x#y\"]\n insteadOf = https://c/\n"))
	fuzzcheck.Seed(f, []string{"../../fixtures/gitconfig/*"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _ := fuzzcheck.Collect(t, Collector{}, ".git/config", data, fuzzcheck.Options{})
		if len(doc.GitConfigs) != 1 {
			t.Fatalf("want one GitConfig per file, got %d", len(doc.GitConfigs))
		}
		lines := fuzzcheck.Lines(data)
		g := doc.GitConfigs[0]
		for _, group := range [][]model.Str{g.CredentialHelpers, g.ExtraHeaders, g.CredentialURLs, g.Includes} {
			for _, s := range group {
				if s.File != ".git/config" || s.Line < 1 || s.Line > lines {
					t.Fatalf("fact %+v out of the file's %d lines", s, lines)
				}
			}
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" || c.Where != "git-config" || c.Line < 1 || c.Line > lines {
				t.Fatalf("inconsistent credential %+v", c)
			}
		}
	})
}
