package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/internal/sarifcheck"
)

var update = flag.Bool("update", false, "rewrite golden files")

// run executes the CLI in-process and returns stdout, stderr and the exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// normalize removes what varies between machines and builds.
func normalize(s, root string) string {
	s = strings.ReplaceAll(s, root, "$FIXTURES")
	s = strings.ReplaceAll(s, `"version": "dev"`, `"version": "VERSION"`)
	return s
}

// TestGoldenScenarios: the whole-sandbox scenarios give the same JSON and
// SARIF as the reviewed golden files (go test ./internal/cli -update).
func TestGoldenScenarios(t *testing.T) {
	root, err := filepath.Abs("../../fixtures")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "scenarios", "*"))
	if err != nil || len(dirs) < 3 {
		t.Fatalf("want at least 3 scenarios, found %d (%v)", len(dirs), err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		for _, format := range []string{"json", "sarif"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				out, stderr, code := run(t, "scan", "--format", format, "--fail-on", "none", dir)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if format == "sarif" {
					if p := sarifcheck.Validate([]byte(out)); len(p) > 0 {
						t.Fatalf("invalid SARIF:\n%s", strings.Join(p, "\n"))
					}
				}
				got := normalize(out, root)
				golden := filepath.Join("testdata", "golden", name+"."+format)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/cli -update)", err)
				}
				if d := cmp.Diff(string(want), got); d != "" {
					t.Errorf("%s differs from golden (-want +got):\n%s", golden, d)
				}
			})
		}
	}
}

// TestNoSecretInAnyOutput scans the tree of planted secrets
// (fixtures/planted-secrets, made by collectors/secrets' planted_test.go),
// plus files broken at a fresh secret (the name of a YAML anchor, a JSON
// literal, a TOML value, a Dockerfile line after a missing "\\", an
// unterminated git config value), in every format, on stdout and with -o
// and the markdown summary on stderr, and greps everything printed for
// every 8-byte run of every planted value.
func TestNoSecretInAnyOutput(t *testing.T) {
	src, err := filepath.Abs("../../fixtures/planted-secrets")
	if err != nil {
		t.Fatal(err)
	}
	// git cannot commit a .git directory: the fixture keeps the repository
	// config as dot-git/config, and the scan sees it at .git/config.
	root := filepath.Join(t.TempDir(), "planted")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "dot-git"), filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "SECRETS.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			secrets = append(secrets, l)
		}
	}
	if len(secrets) < 50 {
		t.Fatalf("want ≥ 50 planted secrets, have %d", len(secrets))
	}
	found := len(secrets)
	broken := brokenAtSecrets(t, root)
	for _, v := range broken {
		secrets = append(secrets, v)
	}
	leaked := map[string]bool{}
	check := func(what, out string) {
		out = strings.ReplaceAll(out, root, "$ROOT")
		for _, s := range secrets {
			for i := 0; i+8 <= len(s); i++ {
				if piece := s[i : i+8]; strings.Contains(out, piece) {
					if !leaked[what+s] {
						t.Errorf("%s contains %q, a piece of a planted secret", what, piece)
					}
					leaked[what+s] = true
					break
				}
			}
		}
	}
	var report string
	for _, format := range []string{"table", "json", "sarif", "markdown"} {
		out, stderr, code := run(t, "scan", "--format", format, "--fail-on", "none", root)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		check(format+" stdout", out)
		check(format+" stderr", stderr)
		file := filepath.Join(t.TempDir(), "report")
		out, stderr, code = run(t, "scan", "--format", format, "--fail-on", "none", "-o", file, "--summary", "markdown", root)
		if code != 0 {
			t.Fatalf("%s -o: exit %d: %s", format, code, stderr)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		check(format+" report file", string(data))
		check(format+" summary", stderr+out)
		if format == "json" {
			report = string(data)
		}
	}
	// The secrets must also be found, not merely hidden.
	if n := strings.Count(report, `"rule_id": "literal-secret-in-config"`); n < found*9/10 {
		t.Errorf("literal-secret-in-config fired %d times for %d planted secrets", n, found)
	}
	// errors[] names each broken file, with its line, and nothing else.
	var rep struct {
		Errors []struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range rep.Errors {
		if _, ok := broken[e.File]; !ok || e.Line == 0 {
			t.Errorf("errors[] has %+v", e)
		}
		got[e.File] = true
	}
	for f := range broken {
		if !got[f] {
			t.Errorf("errors[] does not name %s", f)
		}
	}
}

// brokenAtSecrets writes config files broken where a fresh secret stands
// and returns each file's secret.
func brokenAtSecrets(t *testing.T, root string) map[string]string {
	t.Helper()
	r := rand.New(rand.NewPCG(20261201, 1))
	rnd := func(n int) string {
		const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
		}
		return string(b)
	}
	cases := map[string]string{
		"broken/docker-compose.yml":              "services:\n  agent:\n    image: *SECRET\n",
		"broken/b/docker-compose.yml":            "services:\n  db:\n    ports: !!int SECRET\n",
		"broken/k8s/pod.yaml":                    "apiVersion: v1\nkind: Pod\nmetadata: *SECRET\n",
		"broken/.github/workflows/agent.yml":     "on: push\njobs:\n  a:\n    runs-on: *SECRET\n",
		"broken/.claude/settings.json":           "{\"env\": {\"ANTHROPIC_API_KEY\": SECRET}}\n",
		"broken/.devcontainer/devcontainer.json": "{\"image\": \"x\",\n \"containerEnv\": {\"GH_TOKEN\": SECRET}}\n",
		"broken/.mcp.json":                       "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"NPM_TOKEN\": SECRET}}}}\n",
		"broken/.codex/config.toml":              "[mcp_servers.db]\ncommand = \"db\"\nenv = { DB_PASSWORD = SECRET }\n",
		"broken/.gemini/settings.json":           "{\"mcpServers\": {\"a\": {\"url\": SECRET}}}\n",
		"broken/Dockerfile":                      "FROM alpine\nENV GITHUB_TOKEN=x \\\n    NPM=y\nSECRET\n",
		"broken/.git/config":                     "[remote \"origin\"]\n\turl = https://x.corp.internal/r.git\n\tpushurl = \"https://ci:SECRET@x.corp.internal/r.git\n",
	}
	prefixes := []string{"ghp_", "npm_", "pw", "sk-ant-api03-", ""}
	out := map[string]string{}
	for i, name := range slices.Sorted(maps.Keys(cases)) {
		content := cases[name]
		v := prefixes[i%len(prefixes)] + rnd(36)
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(content, "SECRET", v)), 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = v
	}
	return out
}
