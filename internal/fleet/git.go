package fleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sandbox-audit/sandbox-audit/collectors/deps"
)

// GitSource is a target fetched from a git repository: the commit at Ref
// (a branch, a tag, a commit id; "" the remote's HEAD), shallow, into a
// cache the run keeps between runs.
//
// Fetching is the one step that uses the auditing user's git setup, for
// the credentials it holds (credential helpers, GIT_ASKPASS, ssh keys):
// credentials are never part of the inventory. It runs with hooks off, no
// submodules and the ext:: transport refused. The work tree is then
// checked out with no configuration but the cache repository's own, which
// this package wrote (deps.SafeGit): a .gitattributes in the fetched tree
// finds no filter driver to run.
type GitSource struct {
	URL string
	Ref string
}

var (
	// refPattern: a branch, tag or commit id, never an option.
	refPattern = regexp.MustCompile(`^[A-Za-z0-9._][A-Za-z0-9._/-]*$`)
	// scpLike is git's user@host:path form.
	scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:[^/]`)
)

// checkGit refuses what git could take for an option, transports that run
// commands, and a password in the URL.
func checkGit(url, ref string) error {
	if url == "" || strings.HasPrefix(url, "-") || strings.ContainsAny(url, "\x00\n\r ") {
		return errors.New("git is not a repository URL")
	}
	if ref != "" && (!refPattern.MatchString(ref) || strings.Contains(ref, "..")) {
		return errors.New("ref is not a branch, tag or commit id")
	}
	if t, _, ok := strings.Cut(url, "::"); ok {
		// <transport>::<address> runs git-remote-<transport>; ext:: runs
		// any command.
		return fmt.Errorf("git URL scheme %q: give https://, ssh://, git://, file:// or user@host:path", t)
	}
	if scpLike.MatchString(url) && !strings.Contains(url, "://") {
		return nil // user@host:path over ssh
	}
	u, err := neturl.Parse(url)
	if err != nil {
		return errors.New("git is not a repository URL")
	}
	switch u.Scheme {
	case "https", "http", "ssh", "git", "file":
	default:
		return fmt.Errorf("git URL scheme %q: give https://, ssh://, git://, file:// or user@host:path", u.Scheme)
	}
	if _, has := u.User.Password(); has || (u.User != nil && u.Scheme != "ssh") {
		// A user name over http(s) is often the token itself
		// (https://ghp_…@github.com/…).
		return errors.New("the git URL holds credentials: they belong in your git credential helper or GIT_ASKPASS, never in the inventory (only ssh:// URLs take a user name)")
	}
	return nil
}

// gitID names a git target: host and path without .git, and @ref.
func gitID(url, ref string) string {
	id := url
	if u, err := neturl.Parse(url); err == nil && u.Scheme != "" {
		id = u.Host + u.Path
	} else if h, p, ok := strings.Cut(url, ":"); ok {
		_, host, found := strings.Cut(h, "@")
		if !found {
			host = h
		}
		id = host + "/" + p
	}
	id = strings.TrimSuffix(strings.TrimSuffix(id, "/"), ".git")
	if ref != "" {
		id += "@" + ref
	}
	return id
}

// cacheLocks serialises fetches into one cache directory within a process.
var cacheLocks sync.Map

// Fetch brings the source's commit into its directory under cache and
// returns the work tree and the commit id.
func (g *GitSource) Fetch(ctx context.Context, cache string) (dir, rev string, err error) {
	// git runs in the directory and is also told -C it: a relative cache
	// (--git-cache cache) would be looked for inside itself.
	if cache, err = filepath.Abs(cache); err != nil {
		return "", "", err
	}
	key := sha256.Sum256([]byte(g.URL + "\x00" + g.Ref))
	dir = filepath.Join(cache, hex.EncodeToString(key[:12]))
	mu, _ := cacheLocks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if err := run(deps.SafeGit(ctx, dir, "init", "-q", "--template=")); err != nil {
			return "", "", fmt.Errorf("git init: %w", err)
		}
	}
	ref := g.Ref
	if ref == "" {
		ref = "HEAD"
	}
	// A server that stops sending is given up after a minute of less than
	// a byte a second, and the target's time limit kills git and the
	// helpers it started (deps.Contain).
	fetch := exec.CommandContext(ctx, "git",
		"-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never",
		"-c", "submodule.recurse=false", "-c", "fetch.recurseSubmodules=false",
		"-c", "http.lowSpeedLimit=1", "-c", "http.lowSpeedTime=60",
		"-C", dir, "fetch", "-q", "--depth=1", "--no-tags", "--", g.URL, ref)
	fetch.Dir = dir
	fetch.Env = append(userGitEnv(), "GIT_TERMINAL_PROMPT=0")
	deps.Contain(fetch)
	if err := run(fetch); err != nil {
		return "", "", fmt.Errorf("git fetch %s %s: %w", redactURL(g.URL), ref, err)
	}
	out, err := deps.SafeGit(ctx, dir, "rev-parse", "--verify", "FETCH_HEAD^{commit}").Output()
	if err != nil {
		return "", "", fmt.Errorf("git rev-parse FETCH_HEAD: %w", err)
	}
	rev = strings.TrimSpace(string(out))
	if err := run(deps.SafeGit(ctx, dir, "checkout", "-q", "--force", "--detach", rev)); err != nil {
		return "", "", fmt.Errorf("git checkout %s: %w", rev, err)
	}
	return dir, rev, nil
}

// userGitEnv is the caller's environment for a fetch, without what would
// point git at another repository than the cache's.
func userGitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// run runs cmd; a failure carries git's last line of stderr (not stdout,
// where no secret is printed either: git prints a URL's password nowhere).
func run(cmd *exec.Cmd) error {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if msg := strings.TrimSpace(lines[len(lines)-1]); msg != "" {
			return fmt.Errorf("%v: %s", err, msg)
		}
		return err
	}
	return nil
}
