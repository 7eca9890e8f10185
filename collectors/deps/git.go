package deps

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sandbox-audit/sandbox-audit/collectors"
)

// Sentinel errors the CLI maps to exit code 2: the scan cannot be done.
var (
	// ErrNotGit: the directory is not inside a git work tree (or git is missing).
	ErrNotGit = errors.New("not a git repository")
	// ErrUnknownRef: a base or head revision does not name a commit.
	ErrUnknownRef = errors.New("unknown git revision")
)

// repo runs the git CLI in one directory. The CLI rather than a Go git
// library: it is on every machine that has the repository, understands
// every repository layout (worktrees, alternates, partial clones, SHA-256)
// and costs nothing in binary size. It runs with a fixed configuration that
// lets the repository run nothing (gitenv.go).
type repo struct {
	dir     string // the directory the user gave (may be below the top level)
	prefix  string // dir relative to the top level, "" or ending in "/"
	cfg     gitConfig
	timeout time.Duration // for each git call
	// objects holds what prefetch read ("rev:path" -> object); a name not
	// in it is looked up with a git call of its own.
	objects map[string]object
	// work reads the work tree below dir: no symlink, regular files only,
	// capped, with a deadline.
	work *collectors.Dir
	// worktree holds the work-tree files the comparison with base read
	// and found changed, so they are read once.
	worktree map[string][]byte
	// indexOnly maps the tracked files git does not look for in the work
	// tree (skip-worktree, assume-unchanged) to their index blob, which
	// stands for them as it does for git diff.
	indexOnly map[string]string
}

// object is one "rev:path" as read by cat-file: absent, or a blob's content
// (or the reason it is not one).
type object struct {
	missing bool
	data    []byte
	err     error
}

// defaultGitTimeout bounds one git call: reading objects of the largest
// repositories takes seconds; a git blocked on a FIFO where it reads its
// configuration or a .gitignore would wait for ever.
const defaultGitTimeout = 2 * time.Minute

// command is one git call on the repository: fixed global options and
// configuration, its own environment and session, killed with ctx (and
// its pipes let go a second later, should anything it started hold them).
func (r *repo) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"--no-pager", "--no-replace-objects", "-C", r.dir}, r.cfg.args...)
	cmd := exec.CommandContext(ctx, "git", append(full, args...)...)
	cmd.Env = gitEnv(r.cfg.env)
	Contain(cmd)
	return cmd
}

func (r *repo) git(ctx context.Context, args ...string) ([]byte, error) {
	callCtx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := r.command(callCtx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("run git: %w", ctx.Err())
		}
		if callCtx.Err() != nil {
			return nil, &gitError{args: args, msg: fmt.Sprintf("no answer within %v (stopped)", r.timeout), err: callCtx.Err()}
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

// openRepo checks that dir is inside a git work tree that is where its
// .git is, and reads which drivers and helpers its configuration defines
// so that none of them can run.
func openRepo(ctx context.Context, dir string, timeout time.Duration) (*repo, error) {
	if dir == "" {
		dir = "."
	}
	if timeout <= 0 {
		timeout = defaultGitTimeout
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	if !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	r := &repo{dir: dir, timeout: timeout, cfg: baseConfig(nil)}
	where := []string{"rev-parse", "--is-inside-work-tree", "--show-prefix", "--show-toplevel", "--absolute-git-dir"}
	out, err := r.git(ctx, where...)
	if err != nil && ctx.Err() == nil && strings.Contains(err.Error(), "dubious ownership") {
		// Owned by another user: trusted only where the user said so.
		if dirs := userSafeDirectories(ctx, timeout); len(dirs) > 0 {
			r.cfg = baseConfig(dirs)
			out, err = r.git(ctx, where...)
		}
	}
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
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "true" {
		return nil, fmt.Errorf("open repository %s: %w (no work tree)", dir, ErrNotGit)
	}
	r.prefix = lines[1]
	if err := checkWorkTree(ctx, lines[2], lines[3]); err != nil {
		return nil, fmt.Errorf("open repository %s: %w", dir, err)
	}
	list, err := r.git(ctx, "config", "-z", "--list", "--includes")
	if err != nil {
		return nil, fmt.Errorf("open repository %s: read its configuration: %w", dir, err)
	}
	r.cfg.neutralise(list)
	if r.work, err = collectors.OpenDir(dir); err != nil {
		return nil, fmt.Errorf("read target: %w", err)
	}
	return r, nil
}

// close lets the work tree go.
func (r *repo) close() {
	if r.work != nil {
		r.work.Close()
	}
}

// checkWorkTree refuses a work tree that is not the folder holding the
// repository's .git (a folder, or a file naming it: linked worktrees and
// submodules). A core.worktree in the repository's config could make git
// take another folder — the user's home, / — for the files under audit.
func checkWorkTree(ctx context.Context, top, gitDir string) error {
	want, err := filepath.EvalSymlinks(gitDir)
	if err != nil {
		return fmt.Errorf("resolve git directory: %w", err)
	}
	dotgit := filepath.Join(top, ".git")
	if st, err := os.Stat(dotgit); err == nil {
		got := ""
		switch {
		case st.IsDir():
			got, _ = filepath.EvalSymlinks(dotgit)
		case st.Mode().IsRegular():
			b, err := collectors.ReadFile(ctx, dotgit, 4<<10)
			if p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); err == nil && ok {
				if !filepath.IsAbs(p) {
					p = filepath.Join(top, p)
				}
				got, _ = filepath.EvalSymlinks(p)
			}
		}
		if got != "" && got == want {
			return nil
		}
	}
	return fmt.Errorf("git's work tree for it is %s, which does not hold its .git (core.worktree?): refused", top)
}

// revisions resolves base and head to commits and finds their merge base
// with one rev-parse ("A...B" lists B, A, then each merge base as ^SHA). ok
// is false when any of it fails: the caller then asks step by step, for an
// error that names the revision at fault.
func (r *repo) revisions(ctx context.Context, base, head string) (b, h, mergeBase string, ok bool) {
	for _, ref := range []string{base, head} {
		if ref == "" || strings.HasPrefix(ref, "-") || strings.Contains(ref, "...") {
			return "", "", "", false
		}
	}
	bc, hc := base+"^{commit}", head+"^{commit}"
	out, err := r.git(ctx, "rev-parse", bc, hc, bc+"..."+hc)
	if err != nil {
		return "", "", "", false
	}
	lines := strings.Fields(string(out))
	if len(lines) < 4 {
		return "", "", "", false
	}
	for _, l := range lines {
		if !isHex(strings.TrimPrefix(l, "^")) {
			return "", "", "", false
		}
	}
	b, h, mergeBase = lines[0], lines[1], lines[0] // no ^SHA: unrelated histories, base against head
	if len(lines) > 4 && strings.HasPrefix(lines[4], "^") {
		mergeBase = lines[4][1:]
	}
	return b, h, mergeBase, true
}

func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
// Between two commits git compares the trees; against the work tree this
// package compares (workChanges), so git hashes no work-tree file.
func (r *repo) changes(ctx context.Context, base, head string) ([]string, error) {
	if head == "" {
		return r.workChanges(ctx, base)
	}
	out, err := r.git(ctx, "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--relative", base, head, "--")
	if err != nil {
		return nil, fmt.Errorf("list changed files: %w", err)
	}
	var cs []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			cs = append(cs, p)
		}
	}
	return cs, nil
}

// prefetch reads every path at every revision with one `git cat-file
// --batch` instead of a git call per file and side; exists and read then
// answer from memory. It asks in two rounds: first the trees of the
// folders holding the paths (a name absent from its tree is absent), then
// the blobs those trees name (a blob cat-file cannot give is corrupt or not
// fetched: an error, never an absent file; cat-file answers "missing" to
// both, so rev:path lookups could not tell them apart). Paths holding a
// newline are left to calls of their own, as is everything when the batch
// fails.
func (r *repo) prefetch(ctx context.Context, revs, paths []string) {
	r.objects = nil
	if objs, err := r.batch(ctx, revs, paths); err == nil {
		r.objects = objs
	}
}

// treeEntry is one name in a tree object.
type treeEntry struct {
	mode string
	oid  string
}

func (r *repo) batch(ctx context.Context, revs, paths []string) (map[string]object, error) {
	type want struct{ rev, dir, base, name string }
	var wants []want
	var trees []string // "rev:dir" requests, every folder from the root down, in order
	seen := map[string]bool{}
	for _, rev := range revs {
		if rev == "" {
			continue
		}
		for _, p := range paths {
			if strings.ContainsAny(p, "\n\r") {
				continue
			}
			full := r.prefix + p
			dir, base := path.Split(full)
			dir = strings.TrimSuffix(dir, "/")
			wants = append(wants, want{rev, dir, base, rev + ":" + full})
			for d := dir; ; d = parentDir(d) {
				if t := rev + ":" + d; !seen[t] {
					seen[t] = true
					trees = append(trees, t)
				}
				if d == "" {
					break
				}
			}
		}
	}
	if len(wants) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := r.command(ctx, "cat-file", "--batch")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("run git: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("run git: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git: %w", err)
	}
	// Requests are written while answers are read: cat-file stops reading
	// its input once its output pipe is full, so writing a long request list
	// before reading would block both processes for good.
	send := func(lines []string, close bool) <-chan error {
		done := make(chan error, 1)
		go func() {
			w := bufio.NewWriter(stdin)
			for _, l := range lines {
				w.WriteString(l)
				w.WriteByte('\n')
			}
			err := w.Flush()
			if close {
				if cerr := stdin.Close(); err == nil {
					err = cerr
				}
			}
			done <- err
		}()
		return done
	}
	br := bufio.NewReaderSize(stdout, 64<<10)
	objs, perr := func() (map[string]object, error) {
		// Without --buffer cat-file flushes each answer, so the two rounds
		// are asked one after the other on the same process.
		sent := send(trees, false)
		read := map[string]map[string]treeEntry{} // "rev:dir" -> entries, for the trees git gave
		for _, t := range trees {
			o, err := readObject(br)
			if err != nil {
				return nil, err
			}
			if o.typ == "tree" {
				if read[t], err = parseTree(o.data, o.oidLen); err != nil {
					return nil, err
				}
			}
		}
		if err := <-sent; err != nil {
			return nil, err
		}
		objs := make(map[string]object, len(wants))
		var blobs, oids []string // names whose blob is asked for, and their ids, in order
		for _, w := range wants {
			es, state := dirState(read, w.rev, w.dir)
			if state == dirUnknown {
				continue // left to a call of its own, which names the fault
			}
			e, ok := es[w.base]
			switch {
			case !ok:
				objs[w.name] = object{missing: true}
			case strings.HasPrefix(e.mode, "4"):
				objs[w.name] = object{err: errors.New("is a directory")}
			case e.mode == "160000":
				objs[w.name] = object{err: errors.New("not a file (a submodule)")}
			default:
				blobs, oids = append(blobs, w.name), append(oids, e.oid)
			}
		}
		sent = send(oids, true)
		for _, n := range blobs {
			o, err := readObject(br)
			if err != nil {
				return nil, err
			}
			switch {
			case o.typ == "missing":
				objs[n] = object{err: errors.New("object missing or corrupt in the repository")}
			default:
				objs[n] = object{data: o.data, err: o.err}
			}
		}
		if err := <-sent; err != nil {
			return nil, err
		}
		return objs, nil
	}()
	if perr != nil {
		_ = cmd.Process.Kill() // it may be blocked writing what is not read
	}
	if err := cmd.Wait(); perr == nil && err != nil {
		perr = &gitError{args: []string{"cat-file"}, msg: strings.TrimSpace(stderr.String()), err: err}
	}
	if perr != nil {
		return nil, fmt.Errorf("cat-file: %w", perr)
	}
	return objs, nil
}

// parentDir is the folder holding dir ("" for the root).
func parentDir(dir string) string {
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		return dir[:i]
	}
	return ""
}

const (
	dirPresent = iota // its tree was read
	dirAbsent         // its parent's tree, read, does not hold it as a folder
	dirUnknown        // git gave no tree for it though it should exist (corrupt, not fetched)
)

// dirState says whether a folder exists at rev, from the trees read. cat-file
// answers "missing" both for a folder that is not there and for a tree object
// it cannot read; only the parent's tree tells them apart.
func dirState(read map[string]map[string]treeEntry, rev, dir string) (map[string]treeEntry, int) {
	if es, ok := read[rev+":"+dir]; ok {
		return es, dirPresent
	}
	if dir == "" {
		return nil, dirUnknown // the commit's own tree
	}
	pes, state := dirState(read, rev, parentDir(dir))
	if state != dirPresent {
		return nil, state
	}
	if e, ok := pes[dir[strings.LastIndexByte(dir, '/')+1:]]; ok && strings.HasPrefix(e.mode, "4") {
		return nil, dirUnknown
	}
	return nil, dirAbsent
}

// batchObject is one answer of cat-file --batch.
type batchObject struct {
	typ    string // blob, tree, ... or "missing"
	oidLen int    // bytes of an object id: 20 (SHA-1) or 32 (SHA-256)
	data   []byte
	err    error // the content was not kept (too large)
}

// readObject reads "<name> missing", or "<oid> <type> <size>" and the
// content.
func readObject(br *bufio.Reader) (batchObject, error) {
	hdr, err := br.ReadString('\n')
	if err != nil {
		return batchObject{}, err
	}
	f := strings.Fields(hdr)
	if len(f) != 3 || f[2] == "missing" {
		return batchObject{typ: "missing"}, nil
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return batchObject{}, fmt.Errorf("bad header %q", strings.TrimSpace(hdr))
	}
	o := batchObject{typ: f[1], oidLen: len(f[0]) / 2}
	if size > maxFileSize {
		o.err = fmt.Errorf("larger than %d MB", maxFileSize>>20)
		_, err = io.CopyN(io.Discard, br, size+1)
		return o, err
	}
	o.data = make([]byte, size+1) // the content and its closing newline
	if _, err := io.ReadFull(br, o.data); err != nil {
		return batchObject{}, err
	}
	o.data = o.data[:size]
	return o, nil
}

// parseTree splits a raw tree object: "<mode> <name>\0<oid bytes>" entries.
func parseTree(data []byte, oidLen int) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+oidLen {
			return nil, errors.New("malformed tree object")
		}
		out[string(data[sp+1:nul])] = treeEntry{mode: string(data[:sp]), oid: hex.EncodeToString(data[nul+1 : nul+1+oidLen])}
		data = data[nul+1+oidLen:]
	}
	return out, nil
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
			if _, indexed := r.indexOnly[p]; indexed {
				ok[p] = true
			} else if _, err := os.Lstat(filepath.Join(r.dir, filepath.FromSlash(p))); err == nil {
				ok[p] = true
			}
		}
		return ok, nil
	}
	var rest []string
	for _, p := range paths {
		if o, done := r.objects[rev+":"+r.prefix+p]; done {
			if !o.missing {
				ok[p] = true
			}
			continue
		}
		rest = append(rest, p)
	}
	if len(rest) == 0 {
		return ok, nil
	}
	args := append([]string{"ls-tree", "-z", "--name-only", "--full-name", rev, "--"}, rest...)
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
// only regular files are read, through no symlink: a lockfile symlinked to
// /dev/zero or to a file outside the repository is an error, not content.
func (r *repo) read(ctx context.Context, rev, path string) ([]byte, error) {
	if rev == "" {
		if data, ok := r.worktree[path]; ok {
			return data, nil
		}
		if oid, ok := r.indexOnly[path]; ok {
			return r.blob(ctx, oid)
		}
		return r.work.ReadFile(ctx, path, maxFileSize)
	}
	if o, done := r.objects[rev+":"+r.prefix+path]; done {
		switch {
		case o.missing:
			return nil, fmt.Errorf("read %s at %s: %w", path, short(rev), os.ErrNotExist)
		case o.err != nil:
			return nil, o.err
		}
		return o.data, nil
	}
	out, err := r.git(ctx, "cat-file", "blob", rev+":"+r.prefix+path)
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
