package registry

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEveryCollectorIsFuzzed: each collector of the registry has a fuzz
// target that checks the properties every collector owes any input
// (fuzzcheck.Collect), so a new collector cannot ship without one and the
// CI fuzz pass, which runs every Fuzz function it finds, covers it.
func TestEveryCollectorIsFuzzed(t *testing.T) {
	const module = "github.com/sandbox-audit/sandbox-audit/"
	for _, c := range All() {
		typ := reflect.TypeOf(c)
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		dir := filepath.Join("..", "..", strings.TrimPrefix(typ.PkgPath(), module))
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no tests in %s", c.Name(), dir)
		}
		var fuzzed bool
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			fuzzed = fuzzed || strings.Contains(s, "func FuzzCollect(f *testing.F)") && strings.Contains(s, "fuzzcheck.Collect(t, ")
		}
		if !fuzzed {
			t.Errorf("collector %s (%s) has no FuzzCollect target calling fuzzcheck.Collect", c.Name(), dir)
		}
	}
}
