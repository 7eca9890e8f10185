package secrets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/internal/cli"
)

// TestPlantedNeverPrinted scans the planted-secrets tree, plus files broken
// at a planted secret (the value a YAML anchor names, a JSON literal, a
// TOML value, a Dockerfile line after a missing "\", a git config key),
// through the CLI in every output format, with the summary on stderr, and
// fails if any planted value, or 8 bytes of one, is printed anywhere.
func TestPlantedNeverPrinted(t *testing.T) {
	files, values := secrets.Planted()
	fake := secrets.PlantedFaker(20261130)
	broken := map[string]string{}
	brk := func(file, kind, content string) {
		v := fake(kind)
		broken[file] = strings.ReplaceAll(content, "SECRET", v)
		values[v] = file
	}
	brk("broken/docker-compose.yml", "ghp", "services:\n  agent:\n    image: *SECRET\n")
	brk("broken/k8s/pod.yaml", "password", "apiVersion: v1\nkind: Pod\nmetadata: *SECRET\n")
	brk("broken/.github/workflows/agent.yml", "hex", "on: push\njobs:\n  a:\n    runs-on: *SECRET\n")
	brk("broken/.claude/settings.json", "anthropic", "{\"env\": {\"ANTHROPIC_API_KEY\": SECRET}}\n")
	brk("broken/.devcontainer/devcontainer.json", "ghp", "{\"image\": \"x\",\n \"containerEnv\": {\"GH_TOKEN\": SECRET}}\n")
	brk("broken/.mcp.json", "npm", "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"NPM_TOKEN\": SECRET}}}}\n")
	brk("broken/.codex/config.toml", "password", "[mcp_servers.db]\ncommand = \"db\"\nenv = { DB_PASSWORD = SECRET }\n")
	brk("broken/.gemini/settings.json", "hex", "{\"mcpServers\": {\"a\": {\"url\": SECRET}}}\n")
	brk("broken/Dockerfile", "ghp", "FROM alpine\nENV GITHUB_TOKEN=x \\\n    NPM=y\nSECRET\n")
	brk("broken/dot-git/config", "password", "[remote \"origin\"]\n\turl = https://x.corp.internal/r.git\n\tpushurl = \"https://ci:SECRET@x.corp.internal/r.git\n")
	brk("broken/b/docker-compose.yml", "password", "services:\n  db:\n    ports: !!int SECRET\n")

	dir := t.TempDir()
	write := func(name, content string) {
		name = strings.ReplaceAll(name, "dot-git/", ".git/")
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range files {
		if name != "SECRETS.txt" && name != "README.md" {
			write(name, content)
		}
	}
	for name, content := range broken {
		write(name, content)
	}
	if len(values) < 80 {
		t.Fatalf("only %d values planted", len(values))
	}

	leaked := map[string]map[string]bool{} // output -> values
	check := func(output, text string) {
		for v, file := range values {
			if w, ok := leak(text, v); ok {
				if leaked[output] == nil {
					leaked[output] = map[string]bool{}
				}
				if !leaked[output][v] {
					t.Errorf("%s prints %q of the value planted in %s", output, w, file)
				}
				leaked[output][v] = true
			}
		}
	}
	var jsonReport []byte
	for _, format := range []string{"table", "json", "sarif", "markdown"} {
		report := filepath.Join(t.TempDir(), "report")
		for _, args := range [][]string{
			{"scan", "--format", format, "--fail-on", "none", dir},
			{"scan", "--format", format, "--fail-on", "none", "-o", report, "--summary", "markdown", dir},
		} {
			var out, errb bytes.Buffer
			code := cli.Run(context.Background(), args, &out, &errb)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errb.String())
			}
			check(format+" stdout", out.String())
			check(format+" stderr", errb.String())
		}
		data, err := os.ReadFile(report)
		if err != nil {
			t.Fatal(err)
		}
		check(format+" report file", string(data))
		if format == "json" {
			jsonReport = data
		}
	}
	// The broken files are reported, each with its line.
	var rep struct {
		Errors []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"errors"`
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(jsonReport, &rep); err != nil {
		t.Fatal(err)
	}
	var errored []string
	for _, e := range rep.Errors {
		if strings.HasPrefix(e.File, "broken/") {
			errored = append(errored, e.File)
			if e.Line == 0 {
				t.Errorf("errors[] %s has no line: %q", e.File, e.Message)
			}
		}
	}
	sort.Strings(errored)
	if len(errored) != len(broken) {
		t.Errorf("errors[] names %d broken files, want %d: %v", len(errored), len(broken), errored)
	}
	if len(rep.Findings) < 20 {
		t.Errorf("only %d findings: the planted tree was not audited", len(rep.Findings))
	}
	t.Logf("%d values planted in %d files; %d findings, %d errors", len(values), len(files)+len(broken)-2, len(rep.Findings), len(rep.Errors))
}

// leak returns an 8-byte run of secret found in out (all of it when
// shorter).
func leak(out, secret string) (string, bool) {
	if len(secret) < 8 {
		return secret, strings.Contains(out, secret)
	}
	for i := 0; i+8 <= len(secret); i++ {
		if w := secret[i : i+8]; strings.Contains(out, w) {
			return w, true
		}
	}
	return "", false
}
