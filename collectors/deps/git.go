package deps

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Sentinel errors the CLI maps to exit code 2: the scan cannot be done.
var (
	// ErrNotGit: the directory is not inside a git work tree (or git is missing).
	ErrNotGit = errors.New("not a git repository")
	// ErrUnknownRef: a base or head revision does not name a commit.
	ErrUnknownRef = errors.New("unknown git revision")
)

// repo runs the git CLI in one directory. The CLI rather than a Go git
// library: it is on every machine that has the repository, honours the
// user's configuration (worktrees, alternates, partial clones, safe.directory)
// and costs nothing in binary size.
type repo struct {
	dir    string // the directory the user gave (may be below the top level)
	prefix string // dir relative to the top level, "" or ending in "/"
}

func (r *repo) git(ctx context.Context, args ...string) ([]byte, error) {
	// The repository may be the agent's own work tree, its .git/config
	// written by the agent: no fsmonitor hook, no external diff or textconv
	// program runs on its behalf.
	pre := []string{"-C", r.dir, "-c", "core.fsmonitor=false", "-c", "diff.external=", "-c", "core.hooksPath=/dev/null"}
	cmd := exec.CommandContext(ctx, "git", append(pre, args...)...)
	// Never prompt, never page, never read a credential helper: read-only plumbing.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("run git: %w", ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), &gitError{args: args, msg: msg, err: err}
	}
	return stdout.Bytes(), nil
}

type gitError struct {
	args []string
	msg  string
	err  error
}

func (e *gitError) Error() string { return "git " + e.args[0] + ": " + e.msg }
func (e *gitError) Unwrap() error { return e.err }

// openRepo checks that dir is inside a git work tree.
func openRepo(ctx context.Context, dir string) (*repo, error) {
	if dir == "" {
		dir = "."
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	if !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	r := &repo{dir: dir}
	out, err := r.git(ctx, "rev-parse", "--is-inside-work-tree", "--show-prefix")
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("run git: %w: %w", ErrNotGit, err)
		}
		return nil, fmt.Errorf("open repository %s: %w: %w", dir, ErrNotGit, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) == 0 || lines[0] != "true" {
		return nil, fmt.Errorf("open repository %s: %w (no work tree)", dir, ErrNotGit)
	}
	if len(lines) > 1 {
		r.prefix = lines[1]
	}
	return r, nil
}

// resolve turns a revision into a commit SHA.
func (r *repo) resolve(ctx context.Context, ref string) (string, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return "", fmt.Errorf("resolve %q: %w", ref, ErrUnknownRef)
	}
	out, err := r.git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", fmt.Errorf("resolve %q: %w", ref, ErrUnknownRef)
	}
	return strings.TrimSpace(string(out)), nil
}

// mergeBase returns the best common ancestor, or base when there is none
// (unrelated histories): then the diff is simply base against head.
func (r *repo) mergeBase(ctx context.Context, base, head string) string {
	out, err := r.git(ctx, "merge-base", base, head)
	if err != nil {
		return base
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		return s
	}
	return base
}

// changes lists the files that differ between base and head ("" = the work
// tree, untracked files included: an agent's new lockfile is often not added
// yet). Paths are relative to the directory scanned and limited to it.
func (r *repo) changes(ctx context.Context, base, head string) ([]string, error) {
	args := []string{"diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--relative", base}
	if head != "" {
		args = append(args, head)
	}
	out, err := r.git(ctx, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list changed files: %w", err)
	}
	var cs []string
	seen := map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			seen[p] = true
			cs = append(cs, p)
		}
	}
	if head == "" {
		out, err := r.git(ctx, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
		if err != nil {
			return nil, fmt.Errorf("list untracked files: %w", err)
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" && !seen[p] {
				cs = append(cs, p)
			}
		}
	}
	return cs, nil
}

// exists lists which of paths exist at rev ("" = work tree).
func (r *repo) exists(ctx context.Context, rev string, paths []string) (map[string]bool, error) {
	ok := map[string]bool{}
	if len(paths) == 0 {
		return ok, nil
	}
	if rev == "" {
		// Anything at the path counts: a file that cannot be read is an
		// errors[] entry, not a removed lockfile.
		for _, p := range paths {
			if _, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(p))); err == nil {
				ok[p] = true
			}
		}
		return ok, nil
	}
	args := append([]string{"ls-tree", "-z", "--name-only", "--full-name", rev, "--"}, paths...)
	out, err := r.git(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("list files at %s: %w", rev, err)
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			ok[strings.TrimPrefix(p, r.prefix)] = true
		}
	}
	return ok, nil
}

// maxFileSize bounds a dependency file: the largest real lockfiles weigh
// tens of megabytes; more is junk or an attack on the scanner.
const maxFileSize = 128 << 20

// read returns a file's content at rev ("" = work tree). In the work tree
// only regular files are read: a lockfile symlinked to /dev/zero or to a
// file outside the repository is an error, not content.
func (r *repo) read(ctx context.Context, rev, path string) ([]byte, error) {
	if rev == "" {
		p := filepath.Join(r.dir, filepath.FromSlash(path))
		st, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		switch {
		case st.IsDir():
			return nil, errors.New("is a directory")
		case !st.Mode().IsRegular():
			return nil, errors.New("not a regular file")
		case st.Size() > maxFileSize:
			return nil, fmt.Errorf("larger than %d MB", maxFileSize>>20)
		}
		return os.ReadFile(p)
	}
	out, err := r.git(ctx, "show", "--no-textconv", rev+":"+r.prefix+path)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, short(rev), err)
	}
	if len(out) > maxFileSize {
		return nil, fmt.Errorf("larger than %d MB", maxFileSize>>20)
	}
	return out, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
