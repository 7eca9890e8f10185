package collectors_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/registry"
)

// TestResolveTarget: a file target is placed where a scan of its whole
// repository would see it, so the collector that reads it in the tree reads
// it alone; outside a repository, by the path suffix a specific collector
// claims.
func TestResolveTarget(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(tmp, "repo")
	loose := filepath.Join(tmp, "loose")
	wt := filepath.Join(tmp, "worktree")
	for _, f := range []string{
		"repo/.devcontainer/devcontainer.json", "repo/.github/workflows/agent.yml", "repo/.git/config",
		"repo/deploy/pod.yaml", "repo/services/api/.claude/settings.json", "repo/README.md",
		"repo/.vscode/mcp.json", "repo/fixtures/compose.yaml",
		"loose/proj/.vscode/mcp.json", "loose/proj/.github/workflows/agent.yml",
		"loose/proj/.devcontainer/python/devcontainer.json", "loose/proj/deploy/pod.yaml",
		"loose/proj/Dockerfile", "loose/proj/notes.txt", "loose/proj/.codex/config.toml",
		"loose/home/.local/src/app/compose.yaml",
		"worktree/Dockerfile",
	} {
		write(t, tmp, f, "x")
	}
	write(t, wt, ".git", "gitdir: /elsewhere\n") // a worktree's .git is a file
	tests := []struct {
		target, root, rel string
		notConfig         bool
	}{
		{target: "repo/.devcontainer/devcontainer.json", root: repo, rel: ".devcontainer/devcontainer.json"},
		{target: "repo/.github/workflows/agent.yml", root: repo, rel: ".github/workflows/agent.yml"},
		{target: "repo/.git/config", root: repo, rel: ".git/config"},
		{target: "repo/deploy/pod.yaml", root: repo, rel: "deploy/pod.yaml"},
		{target: "repo/services/api/.claude/settings.json", root: repo, rel: "services/api/.claude/settings.json"},
		{target: "repo/.vscode/mcp.json", root: repo, rel: ".vscode/mcp.json"},
		{target: "repo/README.md", notConfig: true},
		{target: "worktree/Dockerfile", root: wt, rel: "Dockerfile"},
		{target: "loose/proj/.vscode/mcp.json", root: filepath.Join(loose, "proj"), rel: ".vscode/mcp.json"},
		{target: "loose/proj/.github/workflows/agent.yml", root: filepath.Join(loose, "proj"), rel: ".github/workflows/agent.yml"},
		{target: "loose/proj/.devcontainer/python/devcontainer.json", root: filepath.Join(loose, "proj"), rel: ".devcontainer/python/devcontainer.json"},
		{target: "loose/proj/.codex/config.toml", root: filepath.Join(loose, "proj"), rel: ".codex/config.toml"},
		{target: "loose/proj/Dockerfile", root: filepath.Join(loose, "proj"), rel: "Dockerfile"},
		// only the catch-all claims it: read from its own directory
		{target: "loose/proj/deploy/pod.yaml", root: filepath.Join(loose, "proj", "deploy"), rel: "pod.yaml"},
		{target: "loose/proj/notes.txt", notConfig: true},
		// directories: their own root, unless inside a dot-directory
		{target: "repo", root: "repo", rel: ""},
		{target: "repo/fixtures", root: "repo/fixtures", rel: ""},
		{target: "repo/.github/workflows", root: repo, rel: ".github/workflows"},
		{target: "repo/services/api/.claude", root: repo, rel: "services/api/.claude"},
		{target: "loose/proj/.github/workflows", root: filepath.Join(loose, "proj"), rel: ".github/workflows"},
		{target: "loose/proj/.devcontainer", root: filepath.Join(loose, "proj"), rel: ".devcontainer"},
		{target: "loose/home/.local/src/app", root: "loose/home/.local/src/app", rel: ""},
	}
	t.Chdir(tmp)
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			root, rel, err := collectors.ResolveTarget(tt.target, registry.All())
			if tt.notConfig {
				if !errors.Is(err, collectors.ErrNotConfig) || !strings.Contains(err.Error(), tt.target) || !strings.Contains(err.Error(), "formats: workflows, devcontainer") {
					t.Fatalf("err = %v, want ErrNotConfig naming %s and the formats", err, tt.target)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([2]string{tt.root, tt.rel}, [2]string{root, rel}); diff != "" {
				t.Errorf("(root, rel) (-want +got):\n%s", diff)
			}
		})
	}
	if _, _, err := collectors.ResolveTarget(filepath.Join(tmp, "nope.yaml"), registry.All()); err == nil || errors.Is(err, collectors.ErrNotConfig) {
		t.Errorf("missing target: err = %v, want a read error", err)
	}
}

// TestScanFileTarget: a file given as the target is read by the collector
// that reads it in its tree, with paths relative to the repository root.
func TestScanFileTarget(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, repo, ".github/workflows/agent.yml", "on: issue_comment\npermissions: write-all\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: anthropics/claude-code-action@v1\n")
	write(t, repo, "deploy/services.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
	doc, errs, err := collectors.Scan(t.Context(), filepath.Join(repo, ".github", "workflows", "agent.yml"), collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Workflows) != 1 || doc.Workflows[0].File != ".github/workflows/agent.yml" || len(errs) != 0 {
		t.Fatalf("workflows = %+v, errors = %+v", doc.Workflows, errs)
	}
	// read whole, nothing to judge: an entry that keeps its properties unknown
	doc, errs, err = collectors.Scan(t.Context(), filepath.Join(repo, "deploy", "services.yaml"), collectors.Options{Collectors: registry.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].File != "deploy/services.yaml" || errs[0].Kind != "kubernetes" || !strings.Contains(errs[0].Message, "nothing to audit") {
		t.Fatalf("errors = %+v", errs)
	}
	if len(doc.Files) != 1 || doc.Files[0].Facts != 0 {
		t.Errorf("files = %+v, want the file listed with no facts", doc.Files)
	}
}
