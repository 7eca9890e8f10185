package deps

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// hostileConfig arms a repository the way an agent that writes its own
// .git/config could: every key that makes git run a program names a script
// that leaves a marker file (<marks>/<name>.ran) and passes its input
// through. It returns the marks folder.
func hostileConfig(t *testing.T, g *gitRepo) string {
	t.Helper()
	marks := t.TempDir()
	prog := func(name string) string {
		p := filepath.Join(marks, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch \"$0.ran\"\ncat\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hooks := filepath.Join(marks, "hooks")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout", "pre-auto-gc", "fsmonitor-watchman"} {
		if err := os.Symlink(prog("hook-"+h), filepath.Join(hooks, h)); err != nil {
			t.Fatal(err)
		}
	}
	// An included file defines a driver of its own.
	inc := filepath.Join(marks, "included.cfg")
	if err := os.WriteFile(inc, []byte("[filter \"inc\"]\n\tclean = "+prog("inc-clean")+"\n\tsmudge = "+prog("inc-smudge")+"\n\trequired = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Something answers on loopback, asking for credentials.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	for _, kv := range [][2]string{
		{"include.path", inc},
		{"filter.evil.clean", prog("filter-clean")},
		{"filter.evil.smudge", prog("filter-smudge")},
		{"filter.evil.required", "true"},
		{"filter.proc.process", prog("filter-process")},
		{"filter.a=b.clean", prog("filter-eq-clean")}, // a name -c cannot carry
		{"diff.evil.textconv", prog("textconv")},
		{"diff.evil.command", prog("diff-command")},
		{"merge.evil.driver", prog("merge-driver")},
		{"diff.external", prog("diff-external")},
		{"core.fsmonitor", prog("fsmonitor")},
		{"core.hooksPath", hooks},
		{"core.sshCommand", prog("ssh-command")},
		{"core.gitProxy", prog("git-proxy")},
		{"core.askPass", prog("askpass")},
		{"core.pager", prog("pager")},
		{"pager.diff", prog("pager-diff")},
		{"core.editor", prog("editor")},
		{"core.alternateRefsCommand", prog("alternate-refs")},
		{"credential.helper", prog("credential-helper")},
		{"credential." + srv.URL + ".helper", prog("credential-url-helper")},
		{"gpg.program", prog("gpg")},
		{"uploadpack.packObjectsHook", prog("pack-objects-hook")},
		{"log.showSignature", "true"},
		// Promisor remotes a missing object would be fetched from: ssh,
		// git://, a local path (whose upload-pack is a program), ext::
		// (a command line) and http (credentials asked for).
		{"core.repositoryFormatVersion", "1"},
		{"extensions.partialClone", "ssh"},
		{"remote.ssh.url", "ssh://git.invalid/x"},
		{"remote.ssh.promisor", "true"},
		{"remote.gitproto.url", "git://git.invalid/x"},
		{"remote.gitproto.promisor", "true"},
		{"remote.local.url", marks},
		{"remote.local.uploadpack", prog("upload-pack")},
		{"remote.local.promisor", "true"},
		{"protocol.ext.allow", "always"},
		{"remote.ext.url", "ext::" + prog("ext-transport")},
		{"remote.ext.promisor", "true"},
		{"remote.web.url", srv.URL + "/x.git"},
		{"remote.web.promisor", "true"},
	} {
		g.run("config", kv[0], kv[1])
	}
	g.write(map[string]string{".gitattributes": "* diff=evil merge=evil\n*.json filter=evil\npackage.json filter=inc\nrequirements.txt filter=a=b\nCargo.toml filter=proc\n"})
	return marks
}

// ran lists the markers left: the programs that ran.
func ran(t *testing.T, marks string) []string {
	t.Helper()
	got, err := filepath.Glob(filepath.Join(marks, "*.ran"))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range got {
		got[i] = strings.TrimSuffix(filepath.Base(p), ".ran")
	}
	sort.Strings(got)
	return got
}

// TestHostileRepoRunsNothing: a repository whose own configuration names a
// program for every key that can run one (filters applied by
// .gitattributes, drivers, hooks, ssh and proxy commands, credential
// helpers, askpass, pagers, editors, promisor remotes over every
// transport) is scanned — work tree and commits — with none of them run,
// and the scan gives the right answer. Work-tree files are stat-dirty, so
// git comparing the work tree would hash them through the clean filter.
func TestHostileRepoRunsNothing(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.write(map[string]string{"requirements.txt": "requests==2.31.0\n", "Cargo.toml": "[package]\nname = \"x\"\nversion = \"0.1.0\"\n"})
	g.commit("base")
	lock := strings.Replace(readFixture(t, "npm/base/package-lock.json"), `"version": "1.3.0"`, `"version": "1.3.1"`, 1)
	g.write(map[string]string{"package-lock.json": lock})
	g.commit("head")
	marks := hostileConfig(t, g)
	// Same content, new times: stat-dirty for git.
	later := time.Now().Add(time.Minute)
	for _, f := range []string{"package.json", "package-lock.json", "requirements.txt", "Cargo.toml"} {
		if err := os.Chtimes(filepath.Join(g.dir, f), later, later); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"npm left-pad 1.3.0>1.3.1 upgraded package-lock.json:28 registry host=registry.npmjs.org>registry.npmjs.org"}
	for _, head := range []string{"", "main"} {
		d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main~1", Head: head, DBDir: t.TempDir()})
		if err != nil {
			t.Fatalf("head %q: %v", head, err)
		}
		if len(errs) > 0 {
			t.Errorf("head %q: errors %v", head, errs)
		}
		if diff := cmp.Diff(want, summaries(d)); diff != "" {
			t.Errorf("head %q: packages (-want +got):\n%s", head, diff)
		}
		if diff := cmp.Diff([]string{"package-lock.json"}, d.ChangedFiles); diff != "" {
			t.Errorf("head %q: changed files (-want +got):\n%s", head, diff)
		}
	}
	if got := ran(t, marks); len(got) > 0 {
		t.Errorf("the repository's configuration ran: %v", got)
	}
}

// TestMissingObjectIsNotFetched: in a partial clone whose promisor remotes
// are programs (ssh command, upload-pack, ext::, a credential helper), a
// blob the scan needs and the repository lacks is an error, never a fetch.
func TestMissingObjectIsNotFetched(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.commit("base")
	lock := strings.Replace(readFixture(t, "npm/base/package-lock.json"), `"version": "1.3.0"`, `"version": "1.3.1"`, 1)
	g.write(map[string]string{"package-lock.json": lock})
	g.commit("head")
	obj := g.run("rev-parse", "main~1:package-lock.json")
	if err := os.Remove(filepath.Join(g.dir, ".git", "objects", obj[:2], obj[2:])); err != nil {
		t.Fatal(err)
	}
	marks := hostileConfig(t, g)
	for _, head := range []string{"", "main"} {
		d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main~1", Head: head, DBDir: t.TempDir()})
		if err == nil && len(errs) == 0 {
			t.Errorf("head %q: a missing blob gave no error: %v", head, summaries(d))
		}
	}
	if got := ran(t, marks); len(got) > 0 {
		t.Errorf("the repository's configuration ran: %v", got)
	}
}

// TestWorkTreeElsewhere: a core.worktree pointing out of the folder that
// holds .git is refused; a linked worktree (its .git a file naming the
// git dir) is scanned.
func TestWorkTreeElsewhere(t *testing.T) {
	g := newGitRepo(t)
	g.copyDir(filepath.Join(fixtureDir, "npm", "base"), "")
	g.commit("base")
	linked := filepath.Join(t.TempDir(), "linked")
	g.run("worktree", "add", "-q", "-b", "agent", linked)
	if _, _, err := Scan(context.Background(), Options{Repo: linked, Base: "main", DBDir: t.TempDir()}); err != nil {
		t.Errorf("linked worktree: %v", err)
	}
	outside := t.TempDir()
	g.run("config", "core.worktree", outside)
	for _, dir := range []string{g.dir, outside} {
		_, _, err := Scan(context.Background(), Options{Repo: dir, Base: "main", DBDir: t.TempDir()})
		if err == nil {
			t.Errorf("%s: a work tree away from .git was scanned", dir)
		}
	}
	g.run("config", "core.worktree", "/")
	if _, _, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "core.worktree") {
		t.Errorf("core.worktree=/: %v", err)
	}
}

// TestNeutralise: every driver, helper and tool the repository's
// configuration defines gets its command keys emptied; a name -c cannot
// carry goes through GIT_CONFIG_KEY_<n>; core's keys are left to the fixed
// list, other keys alone.
func TestNeutralise(t *testing.T) {
	list := strings.Join([]string{
		"core.repositoryformatversion\n0",
		"filter.lfs.clean\ngit-lfs clean -- %f",
		"filter.a=b.process\nx",
		"diff.Lock.textconv\ncat",
		"merge.m.driver\nx",
		"credential.https://example.com.helper\nstore",
		"difftool.t.cmd\nx",
		"protocol.ext.allow\nalways",
		"pager.log\nless",
		"hook.pre.command\nx",
		"mergetool.t.path\nx",
		"imap.tunnel\nx",
		"submodule.s.update\n!x",
		"include.path\nx.cfg",
		"remote.origin.url\nhttps://example.com/x.git",
		"core.sshcommand\nx",
		"user.name\nt",
		"boolonly",
	}, "\x00") + "\x00"
	var c gitConfig
	c.neutralise([]byte(list))
	wantArgs := []string{
		"-c", "credential.https://example.com.helper=",
		"-c", "diff.Lock.cachetextconv=false",
		"-c", "diff.Lock.command=",
		"-c", "diff.Lock.textconv=",
		"-c", "difftool.t.cmd=",
		"-c", "filter.lfs.clean=",
		"-c", "filter.lfs.process=",
		"-c", "filter.lfs.required=false",
		"-c", "filter.lfs.smudge=",
		"-c", "hook.pre.command=",
		"-c", "imap.tunnel=",
		"-c", "merge.m.driver=",
		"-c", "mergetool.t.path=",
		"-c", "pager.log=false",
		"-c", "protocol.ext.allow=never",
		"-c", "submodule.s.update=none",
	}
	if diff := cmp.Diff(wantArgs, c.args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	wantEnv := []string{
		"GIT_CONFIG_KEY_0=filter.a=b.clean", "GIT_CONFIG_VALUE_0=",
		"GIT_CONFIG_KEY_1=filter.a=b.process", "GIT_CONFIG_VALUE_1=",
		"GIT_CONFIG_KEY_2=filter.a=b.required", "GIT_CONFIG_VALUE_2=false",
		"GIT_CONFIG_KEY_3=filter.a=b.smudge", "GIT_CONFIG_VALUE_3=",
		"GIT_CONFIG_COUNT=4",
	}
	if diff := cmp.Diff(wantEnv, c.env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
}

// TestWorkTreeAsGitSeesIt: the work-tree comparison done here (no git
// diff) lists what git diff would: a file only re-checked-out with CRLF
// line ends is unchanged, an ignored untracked lockfile is not the
// change's, a skip-worktree or assume-unchanged file is its index blob, a
// file removed was deleted, one only untracked (still on disk, the same)
// was not.
func TestWorkTreeAsGitSeesIt(t *testing.T) {
	g := newGitRepo(t)
	g.write(map[string]string{
		"crlf/package.json":   "{\n  \"name\": \"a\",\n  \"dependencies\": {\"left-pad\": \"1.3.0\"}\n}\n",
		"sparse/package.json": `{"name":"s"}`,
		"assumed/Gemfile":     "source \"https://rubygems.org\"\n",
		"gone/Pipfile":        "[packages]\n",
		"kept/Pipfile":        "[packages]\n",
		".gitignore":          "ignored/\n",
	})
	g.commit("base")
	g.write(map[string]string{
		"crlf/package.json":          "{\r\n  \"name\": \"a\",\r\n  \"dependencies\": {\"left-pad\": \"1.3.0\"}\r\n}\r\n",
		"ignored/package-lock.json":  `{"lockfileVersion": 3, "packages": {}}`,
		"assumed/Gemfile":            "source \"https://rubygems.org\"\ngem \"rails\"\n",
		"new/requirements.txt":       "requests==2.31.0\n",
		"sparse/package.json.backup": "x",
	})
	g.run("update-index", "--assume-unchanged", "assumed/Gemfile")
	g.run("update-index", "--skip-worktree", "sparse/package.json")
	g.remove("sparse/package.json")
	g.run("rm", "-q", "gone/Pipfile")
	g.run("rm", "-q", "--cached", "kept/Pipfile")
	d, errs, err := Scan(context.Background(), Options{Repo: g.dir, Base: "main", DBDir: t.TempDir()})
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	if diff := cmp.Diff([]string{"gone/Pipfile", "new/requirements.txt"}, d.ChangedFiles); diff != "" {
		t.Errorf("changed files (-want +got):\n%s", diff)
	}
}
