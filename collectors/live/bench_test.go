package live

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkCollectFixture audits the largest fixture root (bare-host:
// every credential file, history, an old-file walk).
func BenchmarkCollectFixture(b *testing.B) {
	root := copyFixture(b, "bare-host")
	opt := fixtureOptions(root, fixtureNow.Add(-30*time.Minute))
	for b.Loop() {
		Collect(context.Background(), opt)
	}
}

// BenchmarkCollectRoot audits the machine it runs on, without probes:
// the budget is 150 ms.
func BenchmarkCollectRoot(b *testing.B) {
	opt := Options{Root: "/", Env: os.Environ()}
	for b.Loop() {
		Collect(context.Background(), opt)
	}
}
