package model

import (
	"path"
	"strconv"
	"strings"
)

// GroupAgents indexes the agent settings files that merge together, so rules
// that combine files (Claude Code's precedence, deny lists across files) join
// within one project instead of across every repository of a fleet scan, in
// time that follows the group, not the scan.
//
// An agent a workflow step starts (Scope "workflow") runs in the checkout, so
// it reads the project's settings too: it gets a group of its own holding it
// and the project's files. The project's group does not hold it, since the
// step's flags bind only that run, not a developer's session.
func (doc *Document) GroupAgents() {
	doc.AgentGroups = map[string][]int{}
	var global, steps []int
	for i := range doc.Agents {
		a := &doc.Agents[i]
		switch {
		case a.Scope == "user" || a.Scope == "managed":
			a.Project = "*"
			global = append(global, i)
		case a.Scope == "workflow":
			a.Project = repoRoot(a.File)
			a.Group = a.Tool + "|" + a.Project + "|" + a.File + ":" + strconv.Itoa(a.Line)
			steps = append(steps, i)
			continue
		case a.Tool == "opencode" && path.Base(path.Dir(a.File)) != ".opencode":
			// repo/opencode.json → repo: OpenCode's config sits at the
			// project root.
			a.Project = path.Dir(a.File)
		default:
			// repo/.claude/settings.json → repo; .codex/config.toml → "."
			a.Project = path.Dir(path.Dir(a.File))
		}
		a.Group = a.Tool + "|" + a.Project
		if a.Tool == "opencode" && a.Profile != "" {
			// Another OpenCode agent of the config carries its own rules,
			// which come after the global ones and win over them: it is
			// judged alone, not with the default agent's ask and deny.
			a.Group += "|" + a.Profile
		}
		doc.AgentGroups[a.Group] = append(doc.AgentGroups[a.Group], i)
	}
	for _, g := range global {
		tool := doc.Agents[g].Tool
		for key, members := range doc.AgentGroups {
			if key != tool+"|*" && len(key) > len(tool) && key[:len(tool)+1] == tool+"|" {
				doc.AgentGroups[key] = append(members, g)
			}
		}
	}
	for _, i := range steps {
		a := &doc.Agents[i]
		members := []int{i}
		if project, ok := doc.AgentGroups[a.Tool+"|"+a.Project]; ok {
			members = append(members, project...)
		} else {
			for _, g := range global {
				if doc.Agents[g].Tool == a.Tool {
					members = append(members, g)
				}
			}
		}
		doc.AgentGroups[a.Group] = members
	}
}

// repoRoot is the repository directory of a workflow or action file: the
// part of the path before .github/ ("." at the scanned root); the directory
// of a root-level action.yml.
func repoRoot(file string) string {
	if file == "" {
		return "."
	}
	if strings.HasPrefix(file, ".github/") {
		return "."
	}
	if i := strings.Index(file, "/.github/"); i >= 0 {
		return file[:i]
	}
	return path.Dir(file)
}
