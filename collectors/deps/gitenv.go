package deps

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// How git runs on the audited repository.
//
// The repository is the agent's own work tree or the pull request under
// audit: its .git/config, its .gitattributes and every file in it may have
// been written by whoever the audit is about. Git runs programs that its
// configuration names: filter drivers (clean, smudge, process — applied
// through .gitattributes whenever git hashes a work-tree file), diff drivers
// (textconv, command), the fsmonitor hook and every other hook, ssh and proxy
// commands, credential helpers and askpass, pagers and editors, the
// alternate-refs command, pack-objects hooks, GPG programs, and remote
// helpers and transports (ext::) should an object have to be fetched (a
// partial clone's missing blob). Two walls keep all of them from running as
// the auditing user:
//
//  1. Nothing the tool asks of git needs any of them. It reads objects only
//     (rev-parse, merge-base, ls-tree, a tree-to-tree diff --name-only,
//     cat-file --batch without --filters or --textconv) and lists the index
//     (ls-files, which hashes nothing). It never has git compare the work
//     tree: `git diff <base>` hashes stat-dirty and racily-clean files
//     through their clean filter. The work tree is read by this package,
//     through collectors.Dir (no symlink, regular files only, capped, with a
//     deadline), and hashed here as git would store it (worktree.go).
//  2. Should git reach for one anyway, it finds nothing to run. No system or
//     per-user configuration is read (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=
//     /dev/null, no HOME or XDG_CONFIG_HOME: git older than 2.32 finds no
//     ~/.gitconfig either), the environment is built from nothing (no
//     GIT_DIR, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_CONFIG_PARAMETERS from
//     the caller), and command-line settings, which git reads last, empty
//     every key that names a program: the fixed list below, and for every
//     driver, helper or tool the repository's configuration defines (read
//     with includes resolved), its command keys. protocol.allow=never turns
//     a fetch, lazy or not, into an error; nothing here ever fetches.
//
// The repository's own configuration is still read for what reading needs
// (object format, alternates, worktrees, partial-clone promisors); a
// core.worktree that moves the work tree away from the folder holding .git
// is refused (checkWorkTree). Git gets no terminal (setsid) and every call a
// deadline: a FIFO where git reads its config or a .gitignore blocks it in
// open(2), which no flag prevents.

// fixedConfig neutralises the command-running keys git knows by name.
var fixedConfig = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null",
	"core.sshCommand=",
	"core.askPass=",
	"core.pager=cat",
	"core.editor=:", // ":" is git's "no editor"
	"sequence.editor=:",
	"core.gitProxy=",
	"core.alternateRefsCommand=",
	"core.excludesFile=/dev/null", // a path the repository chose (a FIFO) is not read
	"core.attributesFile=/dev/null",
	"core.useReplaceRefs=false", // refs/replace must not swap the objects compared
	"core.untrackedCache=false",
	"credential.helper=", // an empty helper clears every helper set before it
	"diff.external=",
	"uploadpack.packObjectsHook=",
	"gpg.program=", "gpg.openpgp.program=", "gpg.x509.program=", "gpg.ssh.program=", "gpg.ssh.defaultKeyCommand=",
	"log.showSignature=false",
	"protocol.allow=never",
	// protocol.<name>.allow outranks protocol.allow: every transport git has.
	"protocol.file.allow=never", "protocol.git.allow=never", "protocol.ssh.allow=never",
	"protocol.http.allow=never", "protocol.https.allow=never", "protocol.ext.allow=never",
	"submodule.recurse=false",
	"diff.ignoreSubmodules=all", // a dirty submodule is checked by running git in it
	"fetch.recurseSubmodules=false",
	"gc.auto=0",
	"maintenance.auto=false",
	"safe.bareRepository=explicit", // a bare repository planted in the tree is not entered
}

// commandVars are the variable names (a key's last part), in any section,
// that name a program in git-config(1) (2.39) or later: filter.<driver>.
// clean, diff.<driver>.textconv, merge.<driver>.driver, credential.<url>.
// helper, {diff,merge}tool.<tool>.{cmd,path}, {man,browser}.<tool>.
// {cmd,path}, guitool.<name>.cmd, gpg.<format>.program, imap.tunnel,
// interactive.diffFilter, sendemail.{smtpServer,sendmailCmd,toCmd,ccCmd,
// headerCmd}, instaweb.httpd, remote.<name>.{uploadpack,receivepack},
// hook.<name>.command (git 2.46).
var commandVars = map[string]bool{
	"clean": true, "smudge": true, "process": true, "textconv": true, "command": true, "cmd": true,
	"path": true, "driver": true, "helper": true, "program": true, "sshcommand": true, "askpass": true,
	"alternaterefscommand": true, "packobjectshook": true, "defaultkeycommand": true,
	"uploadpack": true, "receivepack": true, "proxycommand": true, "editor": true,
	"tunnel": true, "difffilter": true, "smtpserver": true, "sendmailcmd": true, "tocmd": true,
	"cccmd": true, "headercmd": true, "httpd": true, "browser": true, "viewer": true,
}

// gitConfig is the configuration every git call on the repository runs with.
type gitConfig struct {
	args []string // "-c", "key=value", ...
	env  []string // GIT_CONFIG_COUNT entries, for keys -c cannot carry ('=' in a subsection)
}

// baseConfig is the configuration before the repository's own keys are
// known: enough for rev-parse and config --list, which run nothing.
func baseConfig(safeDirs []string) gitConfig {
	var c gitConfig
	for _, kv := range fixedConfig {
		c.args = append(c.args, "-c", kv)
	}
	for _, d := range safeDirs {
		c.args = append(c.args, "-c", "safe.directory="+d)
	}
	return c
}

// neutralise adds, for the keys the repository's configuration sets (git
// config -z --list output), overrides that empty each command the keys
// name, and switches off every filter driver whole.
func (c *gitConfig) neutralise(list []byte) {
	set := map[string]string{}
	for _, ent := range bytes.Split(list, []byte{0}) {
		key, _, _ := strings.Cut(string(ent), "\n")
		if key == "" {
			continue
		}
		dot, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
		if dot < 0 {
			continue
		}
		section, variable := strings.ToLower(key[:dot]), strings.ToLower(key[last+1:])
		sub := ""
		if last > dot {
			sub = key[dot+1 : last]
		}
		switch {
		case section == "filter" && sub != "":
			for _, v := range []string{"clean", "smudge", "process"} {
				set["filter."+sub+"."+v] = ""
			}
			set["filter."+sub+".required"] = "false"
		case section == "diff" && sub != "" && (variable == "textconv" || variable == "command" || variable == "cachetextconv"):
			set["diff."+sub+".textconv"], set["diff."+sub+".command"], set["diff."+sub+".cachetextconv"] = "", "", "false"
		case section == "protocol" && variable == "allow":
			set[key] = "never"
		case section == "pager":
			set[key] = "false"
		case section == "submodule" && variable == "update":
			set[key] = "none" // "!command" runs it on submodule update
		case section == "core" || section == "include" || section == "includeif":
			// core's command keys are fixed above; includes are already read.
		case commandVars[variable]:
			set[key] = ""
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	n := 0
	for _, k := range keys {
		if !strings.Contains(k, "=") {
			c.args = append(c.args, "-c", k+"="+set[k])
			continue
		}
		// -c splits at the first '=': a subsection holding one would
		// set another key. GIT_CONFIG_KEY_<n> carries it whole (git 2.31).
		c.env = append(c.env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n, k), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n, set[k]))
		n++
	}
	if n > 0 {
		c.env = append(c.env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", n))
	}
}

// gitEnv is the whole environment of a git call: nothing of the caller's
// but PATH, so no variable (GIT_DIR, GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF,
// GIT_CONFIG_PARAMETERS, GIT_TRACE...) changes what git reads or runs.
func gitEnv(extra []string) []string {
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_SYSTEM=/dev/null", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=", // empty, and set: git looks no further (core.askPass, SSH_ASKPASS)
		"GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=:",
		"GIT_OPTIONAL_LOCKS=0",     // read-only: no index refresh written back
		"GIT_NO_REPLACE_OBJECTS=1", // the objects as they are
		"GIT_NO_LAZY_FETCH=1",      // git 2.44+: a missing object is an error (protocol.allow=never before)
		"GIT_ATTR_NOSYSTEM=1",
		"LC_ALL=C",
	}
	if p, ok := os.LookupEnv("PATH"); ok {
		env = append(env, "PATH="+p)
	}
	return append(env, extra...)
}

// userSafeDirectories reads the auditing user's own safe.directory entries
// (system and global configuration, as git would), to carry them into the
// fixed configuration: a CI job that marked a checkout owned by another
// user as safe (actions/checkout in a container does) still audits it.
// They are read only after git refused the repository for its owner.
func userSafeDirectories(ctx context.Context, timeout time.Duration) []string {
	var out []string
	for _, scope := range []string{"--system", "--global"} {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		cmd := exec.CommandContext(ctx, "git", "config", scope, "--includes", "--get-all", "safe.directory")
		cmd.Dir = string(filepath.Separator) // not inside the audited repository
		cmd.SysProcAttr = sysProcAttr()
		b, err := cmd.Output()
		cancel()
		if err != nil {
			continue // no such key, no such file
		}
		// Empty entries stay: one resets the list, as it does for git.
		out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")...)
	}
	return out
}

// SafeGit is git run as on an audited repository, for a repository the
// caller created itself (the fleet's git cache): no system or user
// configuration, every command-running key git knows by name emptied, no
// transport, no terminal. Work-tree commands such as checkout find no
// filter driver to run, whatever the checked-out .gitattributes names.
func SafeGit(ctx context.Context, dir string, args ...string) *exec.Cmd {
	c := baseConfig(nil)
	cmd := exec.CommandContext(ctx, "git", append(append(c.args, "-C", dir), args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv(nil)
	Contain(cmd)
	return cmd
}
