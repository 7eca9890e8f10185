package dockerfile

import (
	"encoding/json"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func docText(doc *model.Document) string {
	b, _ := json.Marshal(doc)
	return string(b)
}

// checkConsistent asserts what must hold for any collected Dockerfile: every
// fact points into the file, kept text is bounded, and every secret found in
// a variable is also listed as a credential.
func checkConsistent(t *testing.T, path string, data []byte, doc *model.Document) {
	t.Helper()
	lines := fuzzcheck.Lines(data)
	check := func(what string, l model.Loc) {
		if l.File != path || l.Line < 1 || l.Line > lines {
			t.Errorf("%s at %s:%d, want %s:1..%d", what, l.File, l.Line, path, lines)
		}
	}
	if len(doc.Images) != 1 {
		t.Fatalf("got %d images, want 1", len(doc.Images))
	}
	img := doc.Images[0]
	check("image", img.Loc)
	for _, b := range img.BaseImages {
		check("base image "+b.Ref, b.Loc)
		if b.Ref == "" {
			t.Error("base image with an empty ref")
		}
	}
	if img.FinalUser != nil {
		check("final user", img.FinalUser.Loc)
	}
	secretVars := 0
	for _, e := range img.Env {
		check("env "+e.Name, e.Loc)
		if e.Secret != nil {
			secretVars++
		}
	}
	if secretVars > len(doc.Credentials) {
		t.Errorf("%d secret variables but %d credentials", secretVars, len(doc.Credentials))
	}
	for _, s := range img.PipeToShell {
		check("pipe to shell", s.Loc)
		if len(s.Value) > maxKeptText {
			t.Errorf("pipe text of %d bytes kept, limit %d", len(s.Value), maxKeptText)
		}
	}
	for _, s := range img.AddURLs {
		check("add url", s.Loc)
	}
	for _, c := range doc.Credentials {
		check("credential "+c.Context, c.Loc)
	}
}

func FuzzCollect(f *testing.F) {
	f.Add([]byte("FROM a AS b\nFROM b\nUSER x\nRUN <<EOF\ncurl x | sh\nEOF\n"))
	f.Add([]byte("ARG B=x\nFROM ${B:-y}@sha256:zz\nENV A=\"q\" B='r'\nADD http://h/a?k=v /\n"))
	f.Add([]byte("# escape=`\nFROM a\nRUN echo `\n  x | sh\n"))
	f.Add([]byte("FROM a\nRUN (curl x|(sh\"'`$(<("))
	fuzzcheck.Seed(f, []string{"../../fixtures/dockerfile/*/Dockerfile"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := fuzzcheck.Collect(t, New(), "Dockerfile", data, fuzzcheck.Options{})
		if err != nil {
			if len(doc.Images) != 0 {
				t.Fatal("facts added despite an error")
			}
			return
		}
		checkConsistent(t, "Dockerfile", data, doc)
	})
}
