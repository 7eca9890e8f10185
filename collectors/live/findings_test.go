package live

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/model"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestFixtureFindings runs the built-in rules on each fixture's live facts
// (no config scanned) and compares the findings with a golden list, so a
// change in a collector or a rule shows up as a reviewed diff.
func TestFixtureFindings(t *testing.T) {
	eng := builtinEngine(t)
	for _, tc := range fixtureCases() {
		t.Run(tc.name, func(t *testing.T) {
			root := copyFixture(t, tc.name)
			l, creds, _ := Collect(context.Background(), fixtureOptions(root, tc.task))
			fs := evalLive(t, eng, l, creds)
			var lines []string
			for _, f := range fs {
				if f.File == "" || f.Line < 1 {
					t.Errorf("finding without a physical location (SARIF needs one): %+v", f)
				}
				lines = append(lines, fmt.Sprintf("%-8s %-32s %s:%d %s", f.Severity, f.RuleID, f.File, f.Line, f.Message))
			}
			sort.Strings(lines)
			checkGolden(t, tc.name+".findings.golden.txt", strings.Join(lines, "\n")+"\n")
		})
	}
}

// builtinEngine compiles the built-in rules.
func builtinEngine(t *testing.T) *rules.Engine {
	t.Helper()
	set, err := rules.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Compile(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// evalLive runs the rules on live facts alone.
func evalLive(t *testing.T, eng *rules.Engine, l *model.Live, creds []model.Credential) []rules.Finding {
	t.Helper()
	doc := &model.Document{Live: l, Credentials: creds}
	doc.Normalize()
	in, err := rules.Input(doc)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := eng.Eval(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}
