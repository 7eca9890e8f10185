// Package testenv holds what tests share about the machine they run on.
package testenv

import (
	"os"
	"testing"
)

// SkipOutsideCI skips a test whose requirement (root, /proc, FIFOs, a
// namespace) a developer's machine may lack. Under CI (the CI variable set,
// as .ci/run does) the requirement is the machine's promise, so the test
// fails instead: CI always runs the real thing.
func SkipOutsideCI(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: CI must run this test", why)
	}
	t.Skip(why)
}
