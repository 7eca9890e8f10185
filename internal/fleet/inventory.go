// Package fleet audits many targets in one run with one engine, keeps each
// run's results in a store, and reports a fleet's posture and what changed
// between runs.
package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/docker"
	"github.com/sandbox-audit/sandbox-audit/collectors/github"
	"github.com/sandbox-audit/sandbox-audit/policies"
)

// ErrInventory marks an inventory that cannot be used (exit 2).
var ErrInventory = errors.New("inventory")

// maxInventorySize bounds the inventory file.
const maxInventorySize = 4 << 20

// Inventory is what a fleet run audits.
//
//	version: 1
//	targets:
//	  - path: repos/*          # a directory, or a glob of directories
//	    policy: policies/strict.yaml   # optional: else each target's own .sandbox-audit.yaml
//	  - name: platform
//	    path: ../platform
//	  - git: https://github.com/org/agent-infra.git   # fetched, shallow, into the git cache
//	    ref: main                                      # branch, tag or commit; default the remote's HEAD
//	  - docker: agent-7                                # a container, read through the Docker Engine API
//	  - docker_label: sandbox-audit.role=agent          # every running container with this label (KEY or KEY=VALUE), each its own target
//	  - github: my-org                                 # every repository, through GitHub's API (forks: true, archived: true to include those)
type Inventory struct {
	Version int         `yaml:"version"`
	Targets []TargetDef `yaml:"targets"`
	// Dir is the inventory file's directory: relative paths start there.
	Dir string `yaml:"-"`
}

// TargetDef is one entry of the inventory.
type TargetDef struct {
	Name   string `yaml:"name"`
	Path   string `yaml:"path"`
	Git    string `yaml:"git"`
	Ref    string `yaml:"ref"`
	Docker string `yaml:"docker"`
	// DockerLabel selects running containers by label, KEY or KEY=VALUE:
	// the Engine API lists them when the run starts, and each is a target
	// of its own, docker://NAME.
	DockerLabel string `yaml:"docker_label"`
	// GitHub is ORG (every repository of the organisation) or ORG/REPO,
	// read through GitHub's API; Forks and Archived include those.
	GitHub   string `yaml:"github"`
	Forks    bool   `yaml:"forks"`
	Archived bool   `yaml:"archived"`
	Policy   string `yaml:"policy"`
	Line     int    `yaml:"-"`
}

// Target is one audited directory of a run.
type Target struct {
	// ID names the target in the store and across runs: the entry's name,
	// else its path as written in the inventory (a glob's match, relative
	// to the inventory's directory).
	ID   string
	Path string // on disk ("" for a git target until it is fetched)
	Git  *GitSource
	// Docker names a container read through the Docker Engine API
	// (Options.DockerHost, else DOCKER_HOST or the default socket).
	Docker string
	// dockerLabel is the docker_label entry's label: of a container its
	// listing gave, or (Docker "") of the entry still to list.
	dockerLabel string
	// err is why the target cannot be audited (a docker_label entry
	// that listed no container): it is stored as the target's error.
	err error
	// GitHub is a repository read through GitHub's API (its settings and
	// configuration files); githubOrg an organisation still to list.
	GitHub    *github.RepoInfo
	githubOrg *TargetDef
	listed    bool   // GitHub came from an organisation's listing
	Policy    string // "" : the target's own .sandbox-audit.yaml, if any
}

// LoadInventory reads an inventory file (a regular file, capped).
func LoadInventory(path string) (*Inventory, error) {
	// The inventory is the operator's own file, named on the command line,
	// and Kubernetes delivers a ConfigMap's or Secret's files as symlinks
	// (fleet.yaml -> ..data/fleet.yaml): follow them to the file, which must
	// still be a regular file under the size cap. Relative paths in it
	// start from the directory the operator named.
	read := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		read = real
	}
	b, err := collectors.ReadFile(context.Background(), read, maxInventorySize)
	if err != nil {
		return nil, fmt.Errorf("%w %s: cannot read: %s", ErrInventory, path, collectors.Reason(err))
	}
	inv, err := ParseInventory(path, b)
	if err != nil {
		return nil, err
	}
	inv.Dir = filepath.Dir(path)
	return inv, nil
}

// ParseInventory decodes an inventory strictly, as a policy file is: an
// unknown key or a second document is an error naming the line, never a
// value of the file.
func ParseInventory(name string, b []byte) (*Inventory, error) {
	inv := &Inventory{}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(inv); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w %s: empty; it needs version: 1 and targets:", ErrInventory, name)
		}
		return nil, fmt.Errorf("%w %s: %s", ErrInventory, name, policies.YAMLProblem(err))
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("%w %s: line %d: a second YAML document; an inventory holds one", ErrInventory, name, next.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w %s: %s (in a second YAML document)", ErrInventory, name, policies.YAMLProblem(err))
	}
	for j, line := range policies.ItemLines(b, "targets") {
		if j < len(inv.Targets) {
			inv.Targets[j].Line = line
		}
	}
	if inv.Version != 1 {
		return nil, fmt.Errorf("%w %s: version must be 1 (got %d)", ErrInventory, name, inv.Version)
	}
	if len(inv.Targets) == 0 {
		return nil, fmt.Errorf("%w %s: no targets", ErrInventory, name)
	}
	for i, t := range inv.Targets {
		if n := btoi(t.Path != "") + btoi(t.Git != "") + btoi(t.Docker != "") + btoi(t.DockerLabel != "") + btoi(t.GitHub != ""); n > 1 {
			return nil, fmt.Errorf("%w %s: line %d: target %d has more than one of path, git, docker, docker_label and github; give one", ErrInventory, name, t.Line, i+1)
		}
		if t.Ref != "" && t.Git == "" {
			return nil, fmt.Errorf("%w %s: line %d: ref is for a git target", ErrInventory, name, t.Line)
		}
		if (t.Forks || t.Archived) && (t.GitHub == "" || strings.Contains(t.GitHub, "/")) {
			return nil, fmt.Errorf("%w %s: line %d: forks and archived are for a github organisation", ErrInventory, name, t.Line)
		}
		if t.GitHub != "" {
			if _, _, err := github.ParseRepo(t.GitHub); err != nil && (strings.Contains(t.GitHub, "/") || !orgName.MatchString(t.GitHub)) {
				return nil, fmt.Errorf("%w %s: line %d: github is not ORG or ORG/REPO", ErrInventory, name, t.Line)
			}
			if t.Name != "" && !strings.Contains(t.GitHub, "/") {
				return nil, fmt.Errorf("%w %s: line %d: name given to a whole organisation", ErrInventory, name, t.Line)
			}
			continue
		}
		if t.DockerLabel != "" {
			if !validLabel(t.DockerLabel) {
				return nil, fmt.Errorf("%w %s: line %d: docker_label is not KEY or KEY=VALUE", ErrInventory, name, t.Line)
			}
			if t.Name != "" {
				return nil, fmt.Errorf("%w %s: line %d: name given to a docker_label entry (each container it lists is docker://NAME)", ErrInventory, name, t.Line)
			}
			continue
		}
		if t.Docker != "" {
			if !containerName.MatchString(t.Docker) {
				return nil, fmt.Errorf("%w %s: line %d: docker is not a container name or id", ErrInventory, name, t.Line)
			}
			continue
		}
		if t.Git != "" {
			if err := checkGit(t.Git, t.Ref); err != nil {
				return nil, fmt.Errorf("%w %s: line %d: %v", ErrInventory, name, t.Line, err)
			}
			continue
		}
		if t.Path == "" {
			return nil, fmt.Errorf("%w %s: line %d: target %d has no path (nor git, docker, docker_label or github)", ErrInventory, name, t.Line, i+1)
		}
		if _, err := filepath.Match(t.Path, ""); err != nil {
			return nil, fmt.Errorf("%w %s: line %d: path is not a valid glob", ErrInventory, name, t.Line)
		}
	}
	return inv, nil
}

// orgName is a GitHub organisation's login.
var orgName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

// ValidOrg reports whether s can be a GitHub organisation's login.
func ValidOrg(s string) bool { return orgName.MatchString(s) }

// ResolveGitHub replaces each whole-organisation target with one target
// per repository GitHub lists for it (a repository also listed on its own
// keeps that entry).
func ResolveGitHub(ctx context.Context, ts []Target, opt github.Options) ([]Target, error) {
	seen := map[string]bool{}
	for _, t := range ts {
		if t.githubOrg == nil {
			seen[t.ID] = true
		}
	}
	var out []Target
	for _, t := range ts {
		if t.githubOrg == nil {
			out = append(out, t)
			continue
		}
		listed, err := GitHubTargets(ctx, opt, t.githubOrg.GitHub, t.githubOrg.Forks, t.githubOrg.Archived, t.Policy)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrInventory, t.githubOrg.Line, err)
		}
		for _, l := range listed {
			if seen[l.ID] {
				continue
			}
			seen[l.ID] = true
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ResolveDocker replaces each docker_label entry with one target per
// running container the engine at host ("" : DOCKER_HOST, else the default
// socket) lists with that label: docker://NAME, under the entry's policy. A
// container also listed on its own (by name, or by an id of 12 digits or
// more) keeps that entry. An entry the engine could not list, or that
// matched no container, stays a target of its own, docker_label:LABEL,
// that fails with why: a fleet whose sandboxes went unread must not read
// as one in good shape, and the other targets are audited all the same.
func ResolveDocker(ctx context.Context, ts []Target, host string) []Target {
	seen := map[string]bool{}
	var named []string
	for _, t := range ts {
		if t.dockerLabel == "" || t.Docker != "" {
			seen[t.ID] = true
			if t.Docker != "" {
				named = append(named, t.Docker)
			}
		}
	}
	listedAlone := func(c docker.Container) bool {
		for _, n := range named {
			if n == c.Name || len(n) >= 12 && strings.HasPrefix(c.ID, n) {
				return true
			}
		}
		return false
	}
	var out []Target
	for _, t := range ts {
		if t.dockerLabel == "" || t.Docker != "" {
			out = append(out, t)
			continue
		}
		cs, err := docker.List(ctx, docker.Options{Host: host, Labels: []string{t.dockerLabel}})
		switch {
		case err != nil:
			t.err = fmt.Errorf("list running containers with label %s: %w", t.dockerLabel, err)
		case len(cs) == 0:
			t.err = fmt.Errorf("%w: no running container has label %s", ErrNoContainers, t.dockerLabel)
		}
		if t.err != nil {
			out = append(out, t)
			continue
		}
		for _, c := range cs {
			id := "docker://" + c.Name
			if seen[id] || listedAlone(c) {
				continue
			}
			seen[id] = true
			out = append(out, Target{ID: id, Docker: c.Name, Policy: t.Policy, dockerLabel: t.dockerLabel})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ErrNoContainers marks a docker_label entry that matched no running
// container.
var ErrNoContainers = errors.New("docker_label")

// containerName is a Docker container name or id.
var containerName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// validLabel: s is KEY or KEY=VALUE, as the Engine's label filter takes
// it: a key without spaces, and nothing unprintable in either.
func validLabel(s string) bool {
	key, _, _ := strings.Cut(s, "=")
	if key == "" || strings.IndexFunc(key, unicode.IsSpace) >= 0 || !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Expand lists the inventory's targets: each path, or each directory a glob
// matches, once, sorted by id. A path that is not a directory, or a glob
// that matches none, is an error: a fleet run that silently audits fewer
// targets than listed would read as a fleet in better shape.
func (inv *Inventory) Expand() ([]Target, error) {
	seen := map[string]bool{}
	var out []Target
	add := func(line int, t Target) error {
		if seen[t.ID] {
			return fmt.Errorf("%w: line %d: target %s is listed twice", ErrInventory, line, t.ID)
		}
		seen[t.ID] = true
		out = append(out, t)
		return nil
	}
	for _, d := range inv.Targets {
		policy := d.Policy
		if policy != "" && !filepath.IsAbs(policy) {
			policy = filepath.Join(inv.Dir, policy)
		}
		if d.GitHub != "" {
			t := Target{ID: d.Name, Policy: policy}
			if owner, repo, err := github.ParseRepo(d.GitHub); err == nil {
				t.GitHub = &github.RepoInfo{Owner: owner, Name: repo}
				if t.ID == "" {
					t.ID = "github:" + owner + "/" + repo
				}
			} else {
				def := d
				t.githubOrg, t.ID = &def, "github:"+d.GitHub
			}
			if err := add(d.Line, t); err != nil {
				return nil, err
			}
			continue
		}
		if d.DockerLabel != "" {
			// Listed when the run starts (ResolveDocker): the containers
			// running then are the ones audited.
			if err := add(d.Line, Target{ID: "docker_label:" + d.DockerLabel, dockerLabel: d.DockerLabel, Policy: policy}); err != nil {
				return nil, err
			}
			continue
		}
		if d.Git != "" || d.Docker != "" {
			t := Target{ID: d.Name, Docker: d.Docker, Policy: policy}
			if d.Git != "" {
				t.Git = &GitSource{URL: d.Git, Ref: d.Ref}
			}
			if t.ID == "" && d.Git != "" {
				t.ID = gitID(d.Git, d.Ref)
			} else if t.ID == "" {
				t.ID = "docker://" + d.Docker
			}
			if err := add(d.Line, t); err != nil {
				return nil, err
			}
			continue
		}
		pattern := d.Path
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(inv.Dir, pattern)
		}
		matches, _ := filepath.Glob(pattern)
		var dirs []string
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && st.IsDir() {
				dirs = append(dirs, m)
			}
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("%w: line %d: %s is not a directory, nor a glob matching one", ErrInventory, d.Line, d.Path)
		}
		if d.Name != "" && len(dirs) > 1 {
			return nil, fmt.Errorf("%w: line %d: name %q given to a glob matching %d directories", ErrInventory, d.Line, d.Name, len(dirs))
		}
		for _, dir := range dirs {
			id := d.Name
			if id == "" {
				id = filepath.ToSlash(dir)
				if rel, err := filepath.Rel(inv.Dir, dir); err == nil {
					id = filepath.ToSlash(rel)
				}
			}
			if err := add(d.Line, Target{ID: id, Path: dir, Policy: policy}); err != nil {
				return nil, err
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
