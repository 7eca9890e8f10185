package cursor

import (
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/fuzzcheck"
)

// fuzzSeeds are Cursor sandbox.json files shaped like real ones.
var fuzzSeeds = []string{
	`{"install": "npm ci", "start": "sudo service docker start", "terminals": [{"name": "w", "command": "npm run watch"}], "build": {"dockerfile": "Dockerfile", "context": ".."}}`,
	`{
  "$schema": "https://cursor.com/schemas/sandbox.json",
  "type": "workspace_readwrite",
  "additionalReadonlyPaths": ["~/.gitconfig", "/opt/toolchains"],
  "additionalReadwritePaths": ["/tmp/build-cache"],
  "disableTmpWrite": false,
  "enableSharedBuildCache": true,
  "networkPolicy": {"default": "deny", "allow": ["registry.npmjs.org", "*.pypi.org"], "deny": ["169.254.169.254"]}
}
`,
	`{"type": "insecure_none", "readBoundary": "/", "networkPolicy": {"default": "allow"}, "additionalReadwritePaths": ["~"]}`,
	`{"type": "workspace_readonly", "networkPolicy": {"default": "deny", "allow": "github.com"}, "extra": {"nested": [null]}}`,
	`{"type":"insecure_none","networkPolicy":{"default":"allow","allow":["a"]},"x":1}`,
	`{"permissions": {"allow": ["Shell(git)", "Read(**)", "Mcp(github, *)"], "deny": ["Shell(rm)"]}}`,
	`{"permissions": {"allow": "Shell(ls)", "deny": [1, null, "Write(*.key)"]}, "editor": {}}`,
}

func FuzzCollect(f *testing.F) {
	fuzzcheck.Seed(f, []string{"../../fixtures/cursor/*/.cursor/sandbox.json"}, fuzzSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		// the CLI's permission file takes the same inputs
		fuzzcheck.Collect(t, New(), ".cursor/cli.json", data, fuzzcheck.Options{})
		fuzzcheck.Collect(t, New(), ".cursor/environment.json", data, fuzzcheck.Options{})
		doc, _ := fuzzcheck.Collect(t, New(), ".cursor/sandbox.json", data, fuzzcheck.Options{})
		for _, a := range doc.Agents {
			if a.NetworkAccess != nil && (a.NetworkDefault == nil || a.NetworkDefault.Value != "allow") {
				t.Fatalf("network access without an allow default: %+v", a)
			}
		}
	})
}
