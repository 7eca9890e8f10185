package devcontainer

import (
	"path"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors/internal/baseimage"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/shell"
	"github.com/sandbox-audit/sandbox-audit/model"
)

// defaultTarget is where the devcontainer CLI mounts the local folder
// when workspaceMount is not set.
const defaultTarget = "/workspaces/${localWorkspaceFolderBasename}"

// repoRoot is the folder the devcontainer CLI opens, relative to the
// scanned root: the parent of .devcontainer/ (of .devcontainer/<name>/ for
// a named configuration), or the folder of a .devcontainer.json.
func repoRoot(file string) string {
	dir := path.Dir(file)
	for d := dir; d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(d) == ".devcontainer" {
			return path.Dir(d)
		}
	}
	return dir
}

// workspaceRel says where a host path given with ${localWorkspaceFolder}
// points, relative to the repository: "." for the folder itself, ".." for
// its parent; "" for any other source.
func workspaceRel(src string) string {
	for _, v := range []string{"${localWorkspaceFolder}", "${env:localWorkspaceFolder}"} {
		if src == v {
			return "."
		}
		if strings.HasPrefix(src, v+"/") {
			return path.Clean(strings.TrimPrefix(src, v+"/"))
		}
	}
	return ""
}

// workspace records the mount the repository is worked on through: the
// explicit workspaceMount, or the read-write bind the CLI makes. A compose
// configuration mounts the workspace in its compose file.
func (r *reader) workspace() {
	for i := range r.w.Mounts {
		r.w.Mounts[i].WorkspaceRel = workspaceRel(r.w.Mounts[i].Source)
	}
	switch {
	case r.workspaceMount != nil:
		ws := *r.workspaceMount
		ws.WorkspaceRel = workspaceRel(ws.Source)
		r.w.Workspace = &ws
	case !r.composed:
		r.w.Workspace = &model.Mount{
			Type: "bind", Source: "${localWorkspaceFolder}", Target: defaultTarget,
			Persistent: true, WorkspaceRel: ".", Loc: r.w.Loc,
		}
	}
}

// containerRoot is the path the repository has in the container.
func (r *reader) containerRoot() string {
	if r.w.Workspace != nil && r.w.Workspace.WorkspaceRel == "." && r.w.Workspace.Target != "" {
		return path.Clean(r.w.Workspace.Target)
	}
	if r.workspaceFolder != nil {
		return path.Clean(r.workspaceFolder.Value)
	}
	return defaultTarget
}

// scripts lists the script files each in-container command runs, as paths
// in the repository when they are inside the workspace (relative paths
// run from the workspace folder), else as container paths.
func (r *reader) scripts() {
	root := r.containerRoot()
	cwd := root
	if r.workspaceFolder != nil {
		cwd = path.Clean(r.workspaceFolder.Value)
	}
	// sub is where commands start, relative to the repository: "" unless
	// workspaceFolder opens a folder inside the workspace mount.
	sub := ""
	if strings.HasPrefix(cwd, root+"/") {
		sub = strings.TrimPrefix(cwd, root+"/")
	}
	repo := repoRoot(r.file)
	for i := range r.w.Commands {
		c := &r.w.Commands[i]
		if c.OnHost {
			// initializeCommand runs in the local folder on the host.
			for _, p := range shell.Scripts(c.Text) {
				if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "$") {
					c.Scripts = append(c.Scripts, path.Join(repo, p))
				}
			}
			continue
		}
		text := strings.NewReplacer("${containerWorkspaceFolder}", cwd, "${containerWorkspaceFolderBasename}", path.Base(cwd)).Replace(c.Text)
		place := func(p string) string {
			switch {
			case strings.HasPrefix(p, "$"):
				return ""
			case !strings.HasPrefix(p, "/"):
				return path.Join(repo, sub, p)
			case p == root || strings.HasPrefix(p, root+"/"):
				return path.Join(repo, strings.TrimPrefix(p, root))
			}
			return p
		}
		scripts, sudo := shell.ScriptRuns(text)
		for _, p := range scripts {
			if q := place(p); q != "" {
				c.Scripts = append(c.Scripts, q)
			}
		}
		for _, p := range sudo {
			if q := place(p); q != "" {
				c.SudoScripts = append(c.SudoScripts, q)
			}
		}
	}
}

// sudo records what the configuration's features and image give the user
// the container runs as: the common-utils feature, and the Dev Containers
// images built with it, configure passwordless sudo for every command for
// their non-root user.
func (r *reader) sudo() {
	user := ""
	if r.w.User != nil {
		user = strings.TrimSpace(r.w.User.Value)
	}
	if r.image != nil {
		if u, ok := baseimage.DevcontainerUser(r.image.Value); ok && user == "" {
			// The image's metadata makes its non-root user the remote user.
			user = u
			r.w.ImageUser = &model.Str{Value: u, Loc: r.image.Loc}
		}
		if g := baseimage.Sudo(r.image.Value, user, r.image.Loc); g != nil {
			r.w.Sudo = append(r.w.Sudo, *g)
		}
	}
	for _, f := range r.w.Features {
		if path.Base(f.Value) != "common-utils" {
			continue
		}
		name := "automatic"
		if opts := r.featureOpts[f.Value]; opts != nil {
			for _, m := range members(opts) {
				if s, ok := str(m.val); ok && m.name == "username" {
					name = s
				}
			}
		}
		switch name {
		case "none", "root":
			continue
		case "automatic", "auto", "":
			// The feature picks the image's uid-1000 user or creates
			// vscode: the non-root user the container runs as.
			if user == "" || user == "root" || user == "0" {
				continue
			}
			name = user
		}
		if name != user {
			continue
		}
		r.w.Sudo = append(r.w.Sudo, model.SudoRule{
			Who: name, RunAs: "(root)", NoPasswd: true, Commands: []string{"ALL"},
			Via: "feature " + f.Value, Loc: f.Loc,
		})
	}
}
