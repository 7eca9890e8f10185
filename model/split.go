package model

import (
	"sort"
	"strings"
)

// Split cuts a large document into parts of about maxFiles files, by
// top-level directory, so rules evaluate on small inputs: OPA's evaluation
// cost and memory grow with the input, and a fleet of repositories in one
// scan is many independent sandboxes. Facts only ever join within a
// top-level directory (settings merge per project; Kubernetes objects are
// linked before the split), except for live facts, which drift rules compare
// with every workload: a document with live facts is never split, nor one
// with the repository's GitHub settings, which rules join with workflows
// and agents anywhere in the tree. The first
// part carries the dependency change and the policy facts.
func (d *Document) Split(maxFiles int) []*Document {
	if d.Live != nil || d.Repository != nil || len(d.Files) <= maxFiles {
		return []*Document{d}
	}
	parts := map[string]*Document{}
	part := func(file string) *Document {
		k := file
		if i := strings.IndexByte(file, '/'); i >= 0 {
			k = file[:i]
		} else {
			k = "" // files at the root
		}
		p := parts[k]
		if p == nil {
			p = &Document{}
			parts[k] = p
		}
		return p
	}
	for _, x := range d.Files {
		p := part(x.Path)
		p.Files = append(p.Files, x)
	}
	for _, x := range d.Workloads {
		p := part(x.File)
		p.Workloads = append(p.Workloads, x)
	}
	for _, x := range d.Images {
		p := part(x.File)
		p.Images = append(p.Images, x)
	}
	for _, x := range d.NetworkPolicies {
		p := part(x.File)
		p.NetworkPolicies = append(p.NetworkPolicies, x)
	}
	for _, x := range d.RuntimeClasses {
		p := part(x.File)
		p.RuntimeClasses = append(p.RuntimeClasses, x)
	}
	for _, x := range d.ServiceAccounts {
		p := part(x.File)
		p.ServiceAccounts = append(p.ServiceAccounts, x)
	}
	for _, x := range d.Skipped {
		p := part(x.File)
		p.Skipped = append(p.Skipped, x)
	}
	for _, x := range d.SandboxRefs {
		p := part(x.File)
		p.SandboxRefs = append(p.SandboxRefs, x)
	}
	for _, x := range d.Namespaces {
		p := part(x.File)
		p.Namespaces = append(p.Namespaces, x)
	}
	for _, x := range d.Agents {
		p := part(x.File)
		p.Agents = append(p.Agents, x)
	}
	for _, x := range d.MCPServers {
		p := part(x.File)
		p.MCPServers = append(p.MCPServers, x)
	}
	for _, x := range d.Workflows {
		p := part(x.File)
		p.Workflows = append(p.Workflows, x)
	}
	for _, x := range d.GitConfigs {
		p := part(x.File)
		p.GitConfigs = append(p.GitConfigs, x)
	}
	for _, x := range d.Credentials {
		p := part(x.File)
		p.Credentials = append(p.Credentials, x)
	}
	for _, x := range d.Firewalls {
		p := part(x.File)
		p.Firewalls = append(p.Firewalls, x)
	}
	for _, x := range d.Scripts {
		p := part(x.File)
		p.Scripts = append(p.Scripts, x)
	}
	for _, x := range d.Raw {
		p := part(x.File)
		p.Raw = append(p.Raw, x)
	}
	keys := make([]string, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []*Document
	cur := &Document{}
	for _, k := range keys {
		cur.Merge(parts[k])
		if len(cur.Files) >= maxFiles {
			out = append(out, cur)
			cur = &Document{}
		}
	}
	if len(cur.Files) > 0 || len(out) == 0 {
		out = append(out, cur)
	}
	for i, p := range out {
		p.Params = d.Params
		if i == 0 {
			p.Deps, p.Policy = d.Deps, d.Policy
		}
		p.GroupAgents()
		p.Normalize()
	}
	return out
}
