package collectors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CatchAll is implemented by a collector that claims files by extension
// alone (the Kubernetes collector reads any YAML file). A file target is
// placed in its tree by the collectors that claim a specific path; a
// catch-all claim says nothing about where the file sits.
type CatchAll interface {
	CatchAll() bool
}

// ErrNotConfig marks an explicit file target that no collector reads: the
// user asked for it to be audited, and it cannot be (exit 2).
var ErrNotConfig = errors.New("not a configuration file sandbox-audit reads")

// ResolveTarget decides the scanned root of a target and the target's path
// inside it (slash-separated; "" when the target is the root itself).
//
// A file is matched by its path inside its repository, as a scan of the
// whole tree would see it: the root is the nearest ancestor directory
// holding .git (a directory, or the file of a worktree or submodule). Outside
// a repository the root is placed above the shortest path suffix that a
// specific (non-catch-all) collector claims, widened over the dot-directories
// right above it (.vscode/mcp.json is VS Code's MCP file, not a bare
// mcp.json); the longest claimed suffix would climb to / and make every
// path absolute. A file only a catch-all collector claims is read from its
// own directory. A file no collector claims is ErrNotConfig, naming the
// formats that exist.
//
// A directory is its own root, unless it lies inside a dot-directory, whose
// name collectors match on (.github/workflows, .devcontainer, .claude…):
// then the root is its repository's root, or outside a repository the
// directory holding that dot-directory (one of the last two names of the
// path), and only the target's subtree is walked.
func ResolveTarget(path string, cs []Collector) (root, rel string, err error) {
	root, rel, _, err = resolveTarget(path, cs)
	return root, rel, err
}

func resolveTarget(path string, cs []Collector) (root, rel string, isDir bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "", false, fmt.Errorf("read target: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", false, fmt.Errorf("read target: %w", err)
	}
	if st.IsDir() {
		root, rel := resolveDir(path, abs)
		return root, rel, true, nil
	}
	if repo := repoRoot(filepath.Dir(abs)); repo != "" {
		r, _ := filepath.Rel(repo, abs)
		r = filepath.ToSlash(r)
		if match(cs, r) == nil {
			return "", "", false, notConfig(path, cs)
		}
		return repo, r, false, nil
	}
	parts := strings.Split(filepath.ToSlash(abs), "/")[1:]
	for k := 1; k <= len(parts); k++ {
		c := match(cs, strings.Join(parts[len(parts)-k:], "/"))
		if c == nil || isCatchAll(c) {
			continue
		}
		// A dot-directory among the two directories above the file is
		// part of its path (.devcontainer/python/devcontainer.json), as it
		// is for a directory target.
		for i := max(0, len(parts)-3); i < len(parts)-k; i++ {
			if isDotDir(parts[i]) {
				k = len(parts) - i
				break
			}
		}
		for k < len(parts) && isDotDir(parts[len(parts)-k-1]) {
			k++
		}
		return "/" + strings.Join(parts[:len(parts)-k], "/"), strings.Join(parts[len(parts)-k:], "/"), false, nil
	}
	if match(cs, filepath.Base(abs)) == nil {
		return "", "", false, notConfig(path, cs)
	}
	return filepath.Dir(abs), filepath.Base(abs), false, nil
}

// resolveDir keeps a directory as its own root unless it lies in a
// dot-directory (see ResolveTarget).
func resolveDir(path, abs string) (string, string) {
	if repo := repoRoot(abs); repo != "" {
		if repo == abs {
			return path, ""
		}
		r, _ := filepath.Rel(repo, abs)
		r = filepath.ToSlash(r)
		for _, seg := range strings.Split(r, "/") {
			if isDotDir(seg) {
				return repo, r
			}
		}
		return path, ""
	}
	// Outside a repository only a dot-directory among the last two names
	// counts (.github/workflows, .devcontainer/python, .claude): one higher
	// up (~/.local/src/app) is not a configuration directory of the target.
	parts := strings.Split(filepath.ToSlash(abs), "/")[1:]
	for i := max(0, len(parts)-2); i < len(parts); i++ {
		if !isDotDir(parts[i]) {
			continue
		}
		for i > 0 && isDotDir(parts[i-1]) {
			i--
		}
		return "/" + strings.Join(parts[:i], "/"), strings.Join(parts[i:], "/")
	}
	return path, ""
}

// isDotDir: a directory name such as .github or .devcontainer (not . or ..).
func isDotDir(name string) bool {
	return len(name) > 1 && name[0] == '.' && name != ".."
}

// repoRoot is the nearest directory from dir upwards that holds .git, or "".
func repoRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func isCatchAll(c Collector) bool {
	ca, ok := c.(CatchAll)
	return ok && ca.CatchAll()
}

func notConfig(path string, cs []Collector) error {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name()
	}
	return fmt.Errorf("%w: %s (formats: %s)", ErrNotConfig, path, strings.Join(names, ", "))
}
