package homedir

import "testing"

func TestIn(t *testing.T) {
	for p, want := range map[string]bool{
		"home/dev/.claude/settings.json": true,
		"Users/ann/.codex/config.toml":   true,
		"root/.gemini/settings.json":     true,
		"srv/root/.gemini/settings.json": false,
		".claude/settings.json":          false,
		"home/settings.json":             false,
		"repo/home/dev/.cursor/cli.json": true,
		"project/Users.json":             false,
	} {
		if got := In(p); got != want {
			t.Errorf("In(%q) = %v, want %v", p, got, want)
		}
	}
}
