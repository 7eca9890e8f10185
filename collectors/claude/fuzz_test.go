package claude

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
)

// fuzzSeeds are Claude Code settings shaped like the ones projects commit:
// permission rules with tool patterns, hooks, the sandbox block, env and
// helpers, managed-settings keys, and comments and trailing commas.
var fuzzSeeds = []string{
	`{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "defaultMode": "acceptEdits",
    "allow": ["Bash(npm run test:*)", "Bash(git diff:*)", "Read(./src/**)", "WebFetch(domain:docs.example.com)", "mcp__github__get_issue"],
    "ask": ["Bash(git push:*)"],
    "deny": ["Read(./.env)", "Read(./secrets/**)", "Bash(curl:*)"],
    "additionalDirectories": ["../shared-lib"],
    "disableBypassPermissionsMode": "disable"
  },
  "sandbox": {
    "enabled": true,
    "autoAllowBashIfSandboxed": true,
    "excludedCommands": ["docker"],
    "network": {"allowedDomains": ["registry.npmjs.org", "*.github.com"], "allowUnixSockets": ["/var/run/docker.sock"], "allowLocalBinding": false}
  },
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/check-cmd.sh"}]}]},
  "env": {"NODE_ENV": "development", "DISABLE_TELEMETRY": "1"},
  "enableAllProjectMcpServers": false,
  "enabledMcpjsonServers": ["github"],
  "cleanupPeriodDays": 7
}
`,
	`{
  // local overrides, not committed
  "permissions": {"defaultMode": "bypassPermissions", "allow": ["Bash(*)", "Write(//etc/**)"],},
  "apiKeyHelper": "/usr/local/bin/print-anthropic-key",
  "awsAuthRefresh": "aws sso login --profile dev",
  "env": {"ANTHROPIC_API_KEY": "sk-ant-api03-Zq9XwV2bN4mK7pL0rT3yU6iO8aS1dF5gH2jK4lZ7xC9vB0nM3qW6eR8tY1uI4oP7aS0dF3gH6jK9lZ2xC5vB8nQ-AbCdEfAA", "HTTPS_PROXY": "http://user:hunter2hunter2@proxy.corp.example:3128"},
  "sandbox": {"enabled": false},
}
`,
	`{"permissions": {"allow": "Bash(*)", "deny": [1, null, {"x": []}]}, "sandbox": [], "env": ["A=1"], "hooks": null}`,
	`{"permissions":{"defaultMode":"bypassPermissions","allow":["Bash(*)"]},"sandbox":{"enabled":false,"network":{"allowedDomains":["*"]}}}`,
	`[[[{"a":1}]]]`,
}

func FuzzCollect(f *testing.F) {
	f.Add([]byte(`{"env":{"TOKEN":"` + fakePAT + `"}, /* c */ "apiKeyHelper":"x",}`))
	fuzzcheck.Seed(f, []string{"../../fixtures/claude/*/.claude/settings.json"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, _ := fuzzcheck.Collect(t, New(), ".claude/settings.json", data, fuzzcheck.Options{})
		if len(doc.Agents) > 1 {
			t.Fatalf("%d agents from one file", len(doc.Agents))
		}
		for _, c := range doc.Credentials {
			if c.Fingerprint == "" {
				t.Fatalf("credential without fingerprint: %+v", c)
			}
		}
	})
}
