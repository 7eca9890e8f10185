package collectors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// maxLinkedEntries bounds the listing of one linked directory inside the
// root (a link to the root's own parent directory lists everything once).
var maxLinkedEntries = 20000

// checkLinks says which symlinks of the tree hide configuration. Symlinks
// are never followed (one pointing out of the root could make the scan
// read the host), so what a link stands for is audited only where it
// points, and only if the walk read that file there as the same format: a
// workflow directory linked to ../ci, .github linked to a folder holding
// workflows/, .claude/settings.json linked to config/claude.json, or a
// link into node_modules, an excluded folder or out of the subtree
// scanned would otherwise pass unread. A link out of the root is not
// listed; it counts when its name makes a format claim what it holds
// (.github, .devcontainer, .claude). Links named as skipped directories
// (node_modules, vendor, .venv) are not looked at; nor are the claims of
// a format that reads its files anywhere (any YAML file as Kubernetes)
// whose file was read as another format.
func checkLinks(ctx context.Context, root string, links []string, jobs []job, cs []Collector) []model.Error {
	if len(links) == 0 {
		return nil
	}
	read := map[string]string{}
	for _, j := range jobs {
		read[j.path] = j.c.Name()
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	var errs []model.Error
	for _, rel := range links {
		if ctx.Err() != nil {
			break
		}
		if skipDirs[path.Base(rel)] {
			continue
		}
		if e, ok := checkLink(ctx, root, realRoot, rel, read, cs); ok {
			errs = append(errs, e)
		}
	}
	return errs
}

func checkLink(ctx context.Context, root, realRoot, rel string, read map[string]string, cs []Collector) (model.Error, bool) {
	own := match(cs, rel)
	kind := model.KindUnknown
	if own != nil {
		kind = own.Name()
	}
	broken := func(err error) (model.Error, bool) {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ELOOP) {
			// A dangling link, or a loop: it stands for nothing, unless
			// its name is a configuration file's.
			if own == nil {
				return model.Error{}, false
			}
		}
		return model.Error{File: rel, Kind: kind, Message: "symlink not followed: " + Reason(err)}, true
	}
	target, fi, err := resolve(ctx, filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return broken(err)
	}
	realRel, err := filepath.Rel(realRoot, target)
	outside := err != nil || realRel == ".." || strings.HasPrefix(realRel, "../")
	realRel = filepath.ToSlash(realRel)
	if !fi.IsDir() {
		switch {
		case own == nil:
			return model.Error{}, false
		case outside:
			return model.Error{File: rel, Kind: kind, Message: "symlink not followed: it points outside the scanned root"}, true
		case unread(cs, own, rel, read[realRel]):
			return model.Error{File: rel, Kind: kind, Message: "symlink not followed: it points to " + realRel + ", which this scan does not read as " + kind}, true
		}
		return model.Error{}, false
	}
	if outside {
		// The format the link's name makes claim its files; for a
		// configuration directory's name, the first format claiming a
		// file of it.
		var c Collector
		for _, q := range linkProbes {
			m := match(cs, rel+"/"+q)
			if m != nil && nameDependent(cs, m, rel+"/"+q) {
				c = m
				break
			}
			if c == nil && m != nil && configDirs[path.Base(rel)] && m != match(cs, "zz-anywhere/x.yml") {
				c = m
			}
		}
		if c == nil {
			return model.Error{}, false
		}
		return model.Error{File: rel, Kind: c.Name(), Message: "symlink to a directory not followed: it points outside the scanned root, and the " + c.Name() + " configuration it holds is not audited"}, true
	}
	// Inside the root: every file under the link the walk did not read
	// as the format its path under the link would be read as.
	n := 0
	var found *model.Error
	err = filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return err
		}
		if n++; n > maxLinkedEntries {
			return errTooMany
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != target {
				return fs.SkipDir
			}
			return nil
		}
		sub, _ := filepath.Rel(target, p)
		sub = filepath.ToSlash(sub)
		c := match(cs, rel+"/"+sub)
		if c == nil || !unread(cs, c, rel+"/"+sub, read[realRel+"/"+sub]) {
			return nil
		}
		found = &model.Error{File: rel, Kind: c.Name(), Message: "symlink to a directory not followed: it points to " + realRel + ", where this scan does not read " + sub + " as " + c.Name()}
		return fs.SkipAll
	})
	switch {
	case found != nil:
		return *found, true
	case errors.Is(err, errTooMany):
		return model.Error{File: rel, Kind: model.KindUnknown, Message: "symlink to a directory not followed: it points to " + realRel + ", too large to check"}, true
	case err != nil && ctx.Err() == nil:
		return model.Error{File: rel, Kind: model.KindUnknown, Message: "symlink to a directory not followed: " + Reason(err)}, true
	}
	return model.Error{}, false
}

var errTooMany = errors.New("too many entries")

// linkTimeout bounds resolving one link: a target on a mount that no
// longer answers (a hung NFS or autofs path) blocks stat in the kernel.
var linkTimeout = 5 * time.Second

// resolve is the link's target and what it is, given up after linkTimeout
// (the blocked call is left behind; it holds nothing of the scan's).
func resolve(ctx context.Context, p string) (string, fs.FileInfo, error) {
	type answer struct {
		target string
		fi     fs.FileInfo
		err    error
	}
	ch := make(chan answer, 1)
	go func() {
		t, err := filepath.EvalSymlinks(p)
		if err != nil {
			ch <- answer{err: err}
			return
		}
		fi, err := os.Stat(t)
		ch <- answer{t, fi, err}
	}()
	timer := time.NewTimer(linkTimeout)
	defer timer.Stop()
	select {
	case a := <-ch:
		return a.target, a.fi, a.err
	case <-timer.C:
		return "", nil, fmt.Errorf("its target did not answer within %v", linkTimeout)
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

// unread reports that what c claims at linkPath was not audited: the walk
// read the file the link leads to (as readAs, "" when not at all) as
// another format. A claim c makes of that file name anywhere (any YAML
// file as Kubernetes) is met by any reading of it.
func unread(cs []Collector, c Collector, linkPath, readAs string) bool {
	if readAs == c.Name() {
		return false
	}
	return readAs == "" || nameDependent(cs, c, linkPath)
}

// nameDependent reports that c claims sub (a path under a link) because of
// where it sits, not because of its name alone: .github/workflows/x.yml is
// a workflow, zz/x.yml only a YAML file.
func nameDependent(cs []Collector, c Collector, sub string) bool {
	return match(cs, "zz-anywhere/"+path.Base(sub)) != c
}

// configDirs are the directories that hold an agent's or a sandbox's
// configuration by their name.
var configDirs = map[string]bool{
	".github": true, ".devcontainer": true, ".claude": true, ".codex": true, ".gemini": true,
	".cursor": true, ".vscode": true, "workflow-templates": true,
}

// linkProbes are files a format claims inside a directory because of that
// directory's name (.github, .devcontainer, .claude, .codex, .gemini,
// .cursor, .vscode, workflow-templates), for a link out of the root,
// which is not listed.
var linkProbes = []string{
	"workflows/x.yml", "x.yml", "devcontainer.json", "settings.json", "settings.local.json",
	"config.toml", "mcp.json", "cli.json", "sandbox.json", "config", "home/config.toml",
}
