// Command gen writes docs/rules from the rules' METADATA: go run ./internal/ruledocs/gen DIR.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sandbox-audit/sandbox-audit/internal/ruledocs"
	"github.com/sandbox-audit/sandbox-audit/rules"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	set, err := rules.LoadBuiltin()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir := os.Args[1]
	old, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, f := range old {
		_ = os.Remove(f)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, body := range ruledocs.Render(set) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
