package model

import "path"

// GroupAgents indexes the agent settings files that merge together, so rules
// that combine files (Claude Code's precedence, deny lists across files) join
// within one project instead of across every repository of a fleet scan, in
// time that follows the group, not the scan.
func (doc *Document) GroupAgents() {
	doc.AgentGroups = map[string][]int{}
	var global []int
	for i := range doc.Agents {
		a := &doc.Agents[i]
		if a.Scope == "user" || a.Scope == "managed" {
			a.Project = "*"
			global = append(global, i)
		} else {
			// repo/.claude/settings.json → repo; .codex/config.toml → "."
			a.Project = path.Dir(path.Dir(a.File))
		}
		a.Group = a.Tool + "|" + a.Project
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
}
