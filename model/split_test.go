package model

import (
	"fmt"
	"reflect"
	"testing"
)

func TestSplitKeepsEveryFactOnceAndProjectsTogether(t *testing.T) {
	d := &Document{Params: map[string]any{"x": 1}, Policy: &Policy{File: "p"}, Deps: &Deps{}}
	for i := 0; i < 30; i++ {
		repo := fmt.Sprintf("repo-%02d", i)
		d.Files = append(d.Files, File{Path: repo + "/.claude/settings.json"}, File{Path: repo + "/compose.yaml"})
		d.Agents = append(d.Agents, Agent{Tool: "claude-code", Scope: "project", Loc: Loc{File: repo + "/.claude/settings.json"}})
		d.Workloads = append(d.Workloads, Workload{ID: repo, Loc: Loc{File: repo + "/compose.yaml"}})
	}
	d.Files = append(d.Files, File{Path: "root.yaml"})
	parts := d.Split(10)
	if len(parts) < 5 {
		t.Fatalf("got %d parts", len(parts))
	}
	files, agents, workloads := 0, 0, 0
	for i, p := range parts {
		files += len(p.Files)
		agents += len(p.Agents)
		workloads += len(p.Workloads)
		for _, a := range p.Agents {
			if len(p.AgentGroups[a.Group]) != 1 {
				t.Errorf("part %d: group %s has %d members", i, a.Group, len(p.AgentGroups[a.Group]))
			}
		}
		if (p.Deps != nil) != (i == 0) || (p.Policy != nil) != (i == 0) {
			t.Errorf("part %d: deps/policy must be in the first part only", i)
		}
		if p.Params["x"] != 1 {
			t.Errorf("part %d lost params", i)
		}
	}
	if files != len(d.Files) || agents != 30 || workloads != 30 {
		t.Fatalf("facts lost or doubled: files %d agents %d workloads %d", files, agents, workloads)
	}
	// the repository's GitHub settings join workflows and agents anywhere
	// in the tree: never split
	d.Repository = &Repository{Owner: "o", Name: "r"}
	if ps := d.Split(10); len(ps) != 1 || ps[0].Repository == nil {
		t.Fatalf("document with repository settings split into %d parts", len(ps))
	}
	d.Repository = nil
	// live facts are compared with every workload: never split
	d.Live = &Live{}
	if n := len(d.Split(10)); n != 1 {
		t.Fatalf("document with live facts split into %d parts", n)
	}
}

// TestGroupAgentsStepSeesProject: an agent a workflow step starts reads the
// project's settings in the checkout; the project's group does not take the
// step's flags in.
func TestGroupAgentsStepSeesProject(t *testing.T) {
	d := &Document{Agents: []Agent{
		{Tool: "claude-code", Scope: "project", Loc: Loc{File: "repo/.claude/settings.json", Line: 1}},
		{Tool: "claude-code", Scope: "workflow", Loc: Loc{File: "repo/.github/workflows/fix.yml", Line: 12}},
		{Tool: "claude-code", Scope: "managed", Loc: Loc{File: "etc/claude-code/managed-settings.json", Line: 1}},
		{Tool: "gemini", Scope: "workflow", Loc: Loc{File: ".github/workflows/g.yml", Line: 9}},
	}}
	d.GroupAgents()
	step, project := d.Agents[1], d.Agents[0]
	if step.Project != "repo" || step.Group != "claude-code|repo|repo/.github/workflows/fix.yml:12" {
		t.Fatalf("step agent project %q group %q", step.Project, step.Group)
	}
	if got := fmt.Sprint(d.AgentGroups[step.Group]); got != "[1 0 2]" {
		t.Errorf("step group = %s, want itself, the project file and the managed file", got)
	}
	if got := fmt.Sprint(d.AgentGroups[project.Group]); got != "[0 2]" {
		t.Errorf("project group = %s, want the project and managed files only", got)
	}
	if g := d.Agents[3]; g.Project != "." || fmt.Sprint(d.AgentGroups[g.Group]) != "[3]" {
		t.Errorf("root workflow agent: project %q, group %v", g.Project, d.AgentGroups[g.Group])
	}
}

// TestGroupAgentsOpenCode: an OpenCode config at a project's root speaks
// for that project; its other agents (profiles) are judged alone, each with
// the user's global files.
func TestGroupAgentsOpenCode(t *testing.T) {
	d := &Document{Agents: []Agent{
		{Tool: "opencode", Scope: "project", Loc: Loc{File: "svc/opencode.json", Line: 1}},
		{Tool: "opencode", Scope: "project", Profile: "coder", Loc: Loc{File: "svc/opencode.json", Line: 5}},
		{Tool: "opencode", Scope: "project", Loc: Loc{File: "svc/.opencode/opencode.jsonc", Line: 1}},
		{Tool: "opencode", Scope: "user", Loc: Loc{File: "home/dev/.config/opencode/opencode.json", Line: 1}},
	}}
	d.GroupAgents()
	if main := d.Agents[0]; main.Project != "svc" || fmt.Sprint(d.AgentGroups[main.Group]) != "[0 2 3]" {
		t.Errorf("default agent: project %q, group %v", main.Project, d.AgentGroups[main.Group])
	}
	if sub := d.Agents[1]; sub.Group != "opencode|svc|coder" || fmt.Sprint(d.AgentGroups[sub.Group]) != "[1 3]" {
		t.Errorf("profile: group %q = %v", sub.Group, d.AgentGroups[sub.Group])
	}
}

// TestMergeAllIsMerge: MergeAll gives what Merge does part by part, for
// every list of the document, and empties the parts.
func TestMergeAllIsMerge(t *testing.T) {
	mk := func(seed int) *Document {
		d := &Document{}
		v := reflect.ValueOf(d).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() != reflect.Slice {
				continue
			}
			for k := range (seed + i) % 3 {
				e := reflect.New(f.Type().Elem()).Elem()
				// every element is told apart by the string fields it has
				for j := range e.NumField() {
					if e.Field(j).Kind() == reflect.String {
						e.Field(j).SetString(fmt.Sprint(seed, "/", i, "/", k))
					}
				}
				f.Set(reflect.Append(f, e))
			}
		}
		if seed == 1 {
			d.Live, d.Deps = &Live{}, &Deps{}
		}
		return d
	}
	want := &Document{}
	var parts []*Document
	for s := range 5 {
		want.Merge(mk(s))
		parts = append(parts, mk(s))
	}
	got := MergeAll(parts)
	if !reflect.DeepEqual(want, got) {
		t.Errorf("MergeAll differs from Merge:\n%+v\n%+v", want, got)
	}
	for i, p := range parts {
		if p != nil {
			t.Errorf("part %d kept", i)
		}
	}
	if reflect.DeepEqual(want, &Document{}) {
		t.Fatal("nothing merged")
	}
}
