package firewall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// TestHostileShapes bounds the time a script built to make the walk
// explode takes: nesting, self-calling functions, nested loops, chains
// that jump into each other.
func TestHostileShapes(t *testing.T) {
	var jumps strings.Builder
	for i := 0; i < 40; i++ {
		jumps.WriteString("iptables -A X -j Y\niptables -A Y -j X\niptables -A OUTPUT -j X\n")
	}
	jumps.WriteString("iptables -P OUTPUT DROP\nif x; then exit 0; fi\nexit 0\n")
	for name, src := range map[string]string{
		"nested substitutions": strings.Repeat("$(", 3000),
		"nested subshells":     strings.Repeat("(", 5000),
		"self-calling":         "f() { f; f; f; f; f; f; f; f; }\nf\n",
		"nested loops":         strings.Repeat("for a in 1 2 3 4 5 6 7 8 9 0; do ", 12) + "x=1;" + strings.Repeat(" done;", 12),
		"long pipeline":        strings.Repeat("x|", 20000) + "x",
		"jumping chains":       jumps.String(),
	} {
		start := time.Now()
		var doc model.Document
		_ = New().Collect(context.Background(), file, []byte(src), &doc)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}
