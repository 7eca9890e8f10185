package collectors_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMalformedFilesDoNotStopTheScan: every bad file becomes an errors[]
// entry naming it, and the good files are still audited.
func TestMalformedFilesDoNotStopTheScan(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write(t, root, "good/compose.yaml", "services:\n  app:\n    image: x:1\n    privileged: true\n")
	write(t, root, "bad-json/.mcp.json", `{"mcpServers": {"a": `)
	write(t, root, "bad-yaml/compose.yaml", "services:\n  app: [\n")
	write(t, root, "bad-toml/.codex/config.toml", "sandbox_mode = \n")
	write(t, root, "junk/Dockerfile", "\x00\x01\x02\xff\xfe binary junk")
	write(t, root, "bomb/k8s.yaml", "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\napiVersion: v1\nkind: Pod\n")
	// a 50 MB "compose file" (sparse)
	big := filepath.Join(root, "big", "docker-compose.yml")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// a symlink loop and a symlink out of the root, both with config names
	if err := os.MkdirAll(filepath.Join(root, "links"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("compose.yaml", filepath.Join(root, "links", "docker-compose.yml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("docker-compose.yml", filepath.Join(root, "links", "compose.yaml")); err != nil {
		t.Fatal(err)
	}
	write(t, outside, ".mcp.json", `{"mcpServers": {}}`)
	if err := os.Symlink(filepath.Join(outside, ".mcp.json"), filepath.Join(root, "links", ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	// a directory loop through a symlink must not be walked
	if err := os.Symlink("..", filepath.Join(root, "links", "up")); err != nil {
		t.Fatal(err)
	}

	doc, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]string{}
	for _, e := range errs {
		byFile[e.File] = e.Message
		// every one of them was claimed by a format: it leaves that
		// format's properties unknown
		if e.Kind == "" || e.Kind == model.KindUnknown {
			t.Errorf("%s: kind %q, want the collector that claimed it", e.File, e.Kind)
		}
	}
	want := map[string]string{
		"bad-json/.mcp.json":          "",
		"bad-yaml/compose.yaml":       "",
		"bad-toml/.codex/config.toml": "",
		"junk/Dockerfile":             "",
		"bomb/k8s.yaml":               "",
		"big/docker-compose.yml":      "over the",
		"links/docker-compose.yml":    "symlink not followed",
		"links/compose.yaml":          "symlink not followed",
		"links/.mcp.json":             "outside the scanned root",
	}
	for file, frag := range want {
		msg, ok := byFile[file]
		if !ok {
			t.Errorf("no errors[] entry for %s (have %v)", file, byFile)
			continue
		}
		if !strings.Contains(msg, frag) {
			t.Errorf("%s: %q does not contain %q", file, msg, frag)
		}
	}
	if len(doc.Workloads) != 1 || doc.Workloads[0].File != "good/compose.yaml" {
		t.Fatalf("the good file was not audited: %+v", doc.Workloads)
	}
}

func TestExcludeGlobs(t *testing.T) {
	root := t.TempDir()
	write(t, root, "fixtures/a/compose.yaml", "services:\n  a:\n    image: x\n")
	write(t, root, "deploy/compose.yaml", "services:\n  b:\n    image: x\n")
	write(t, root, "node_modules/pkg/compose.yaml", "services:\n  c:\n    image: x\n")
	doc, _, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All(), Exclude: []string{"fixtures/**"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Workloads) != 1 || doc.Workloads[0].File != "deploy/compose.yaml" {
		t.Fatalf("workloads = %+v", doc.Workloads)
	}
}

func TestUnreadableRoot(t *testing.T) {
	if _, _, err := collectors.Scan(context.Background(), filepath.Join(t.TempDir(), "nope"), collectors.Options{Collectors: registry.All()}); err == nil {
		t.Fatal("missing root accepted")
	}
}

// TestFailedFilesNameTheirFormat: an errors[] entry says which collector
// claimed the file and whether facts were read before the failure; a file
// that yielded nothing before failing is not listed as read.
func TestFailedFilesNameTheirFormat(t *testing.T) {
	root := t.TempDir()
	write(t, root, "good/compose.yaml", "services:\n  app:\n    image: x:1\n")
	write(t, root, "empty/.mcp.json", `{"mcpServers": {}}`)
	write(t, root, "bad/.mcp.json", `{"mcpServers": {"a": `)
	write(t, root, "k8s/partial.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: c\n      image: x\n---\nkind: [\n")
	write(t, root, "k8s/broken.yaml", "kind: [\n")
	doc, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		File, Kind string
		Partial    bool
	}
	var got []entry
	for _, e := range errs {
		got = append(got, entry{e.File, e.Kind, e.Partial})
	}
	want := []entry{{"bad/.mcp.json", "mcp", false}, {"k8s/broken.yaml", "kubernetes", false}, {"k8s/partial.yaml", "kubernetes", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	files := map[string]int{}
	for _, f := range doc.Files {
		files[f.Path] = f.Facts
	}
	// The partial Pod yields one workload; the empty MCP config was read whole
	// and yielded nothing (no evidence, no error: it is not the target).
	if diff := cmp.Diff(map[string]int{"good/compose.yaml": 1, "empty/.mcp.json": 0, "k8s/partial.yaml": 1}, files); diff != "" {
		t.Errorf("files read and their facts (-want +got):\n%s", diff)
	}
}

// TestUnreadableDirectoryIsUnknownKind: a directory the walk cannot list
// could have held any format.
//
// Root reads every directory, and CI runs as root: there the test runs
// again, alone, in a copy of this test binary as the unprivileged user
// nobody.
func TestUnreadableDirectoryIsUnknownKind(t *testing.T) {
	if os.Geteuid() == 0 {
		runAsNobody(t, "TestUnreadableDirectoryIsUnknownKind")
		return
	}
	root := t.TempDir()
	write(t, root, "locked/compose.yaml", "services: {}\n")
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	_, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].File != "locked" || errs[0].Kind != model.KindUnknown {
		t.Fatalf("errors = %+v", errs)
	}
}

// TestSymlinkedTarget: a target that is a symlink to a folder is audited
// where it points (it used to audit nothing and pass); a symlink inside it
// is still not followed.
func TestSymlinkedTarget(t *testing.T) {
	real := t.TempDir()
	write(t, real, "compose.yaml", "services:\n  app:\n    image: x:1\n    privileged: true\n")
	link := filepath.Join(t.TempDir(), "checkout")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	doc, errs, err := collectors.Scan(context.Background(), link, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 0 || len(doc.Workloads) != 1 || doc.Workloads[0].File != "compose.yaml" {
		t.Fatalf("workloads %+v, errors %v", doc.Workloads, errs)
	}
}

// TestNonRegularConfigFile: a FIFO under a config file's name is an
// errors[] entry, at once, never a read that waits for a writer.
func TestNonRegularConfigFile(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "compose.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].File != "compose.yaml" || errs[0].Message != "not read: a named pipe (FIFO), not a regular file" {
		t.Errorf("errors %+v", errs)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// runAsNobody runs test name in a copy of this test binary as uid/gid
// 65534 and fails t with its output unless it passes (not skips).
func runAsNobody(t *testing.T, name string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// t.TempDir and its parent are root's alone (0700), like the go
	// tool's folder the binary is in.
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "collectors.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run", "^"+name+"$", "-test.count", "1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

// TestSymlinkedConfigDirs: a link that puts configuration where a format
// reads it (a workflow directory, a devcontainer, agent settings) is never
// followed, and says so when what it points to is not read the same way:
// a pull_request_target workflow behind .github/workflows -> ../ci used to
// pass unread.
func TestSymlinkedConfigDirs(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	wf := "on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: anthropics/claude-code-action@v1\n"
	write(t, root, "ci/agent.yml", wf)
	write(t, root, "config/claude.json", `{"permissions": {"defaultMode": "bypassPermissions"}}`)
	write(t, root, "docs/v2/compose.yaml", "services:\n  a:\n    image: x\n")
	write(t, outside, "dc/devcontainer.json", `{"image": "x", "privileged": true}`)
	write(t, outside, "misc/notes.txt", "x")
	link := func(target, rel string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	link("../ci", ".github/workflows")
	link(filepath.Join(outside, "dc"), ".devcontainer")
	write(t, root, "tools/dc/devcontainer.json", `{"image": "x"}`)
	link("../tools/dc", "svc/.devcontainer") // devcontainer.json is read anywhere: read there
	write(t, root, "tools/cx/config.toml", "sandbox_mode = \"danger-full-access\"\n")
	link("../tools/cx", "svc/.codex")
	link("../config/claude.json", ".claude/settings.json")
	link("v2", "docs/latest")                         // read where it points, the same way
	link(filepath.Join(outside, "misc"), "vendor")    // a skipped directory's name
	link(filepath.Join(outside, "misc"), "bazel-bin") // out of the root, named for nothing
	// .github linked to a folder holding workflows/ (the link is the
	// parent of the configuration directory)
	write(t, root, "ci-config/workflows/agent.yml", wf)
	link("../ci-config", "svc/.github")
	// a link into a skipped directory
	write(t, root, "node_modules/@acme/ci/agent.yml", wf)
	link("../../node_modules/@acme/ci", "svc2/.github/workflows")
	// a directory read anyway, linked under a name only YAML claims
	link("ci", "ci-mirror")
	_, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range errs {
		got[e.File] = e.Kind
	}
	want := map[string]string{
		".github/workflows":      "workflows",
		".devcontainer":          "devcontainer", // out of the root
		"svc/.codex":             "codex",
		".claude/settings.json":  "claude",
		"svc/.github":            "workflows",
		"svc2/.github/workflows": "workflows",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors[] by file and kind (-want +got):\n%s\n%+v", diff, errs)
	}
}

// An extensionless file under bin/ is read only when a shell runs it: a
// compiled program there (too large for a configuration file) and a note
// without a shebang are not configuration files — not listed, no error —
// and a launcher script beside them is read.
func TestSniffedFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, "bin/notes", "docker run -v /var/run/docker.sock:/var/run/docker.sock x\n")
	write(t, root, "bin/claude-box", "#!/usr/bin/env bash\ndocker run --rm -v /var/run/docker.sock:/var/run/docker.sock example/box:1 claude -p go\n")
	prog := filepath.Join(root, "bin", "sandbox-tool")
	f, err := os.Create(prog)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(20 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	doc, errs, err := collectors.Scan(context.Background(), root, collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 0 {
		t.Errorf("errors = %+v, want none", errs)
	}
	var files []string
	for _, f := range doc.Files {
		files = append(files, f.Path+" "+f.Kind)
	}
	if diff := cmp.Diff([]string{"bin/claude-box script"}, files); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if len(doc.Workloads) != 1 || doc.Workloads[0].File != "bin/claude-box" {
		t.Errorf("workloads = %+v", doc.Workloads)
	}
}
