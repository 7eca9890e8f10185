package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestPartsAreSplits: Split and Parts cut a document as the Split that
// built every part by appending (splitRef, kept here as it was) did, on
// random documents: facts of every list, at the root and in directories
// with and without files, and cuts that leave facts of no file last.
func TestPartsAreSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
		d := randomDocument(r)
		max := 1 + r.IntN(12)
		want := splitRef(clone(t, d), max)
		if got := clone(t, d).Split(max); !reflect.DeepEqual(want, got) {
			t.Fatalf("round %d: Split(%d) differs:\n%s", round, max, diffParts(want, got))
		}
		moved := clone(t, d)
		ps := moved.Parts(max)
		got := make([]*Document, ps.Len())
		for i := range got {
			if i == len(got)-1 && i > 0 {
				// every fact handed to a part is zeroed where it was
				zeroed, inParts := 0, 0
				for _, w := range moved.Workloads {
					if w.ID == "" && w.Mounts == nil {
						zeroed++
					}
				}
				for _, p := range got[:i] {
					inParts += len(p.Workloads)
				}
				if zeroed != inParts {
					t.Fatalf("round %d: %d workloads in parts, %d moved out of the document", round, inParts, zeroed)
				}
			}
			got[i] = ps.Part(i)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("round %d: Parts(%d) differs:\n%s", round, max, diffParts(want, got))
		}
		if len(got) > 1 && (moved.Workloads != nil || moved.Files != nil || moved.Raw != nil) {
			t.Fatalf("round %d: the document's lists are kept once every part is built", round)
		}
	}
}

func diffParts(want, got []*Document) string {
	return fmt.Sprintf("want %d parts, got %d\nwant %s\ngot  %s", len(want), len(got), summary(want), summary(got))
}

func summary(ds []*Document) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "[files %d workloads %d agents %d raw %d] ", len(d.Files), len(d.Workloads), len(d.Agents), len(d.Raw))
	}
	return b.String()
}

// clone copies d deeply enough that a part's changes (GroupAgents,
// Normalize, moved facts) do not reach the original.
func clone(t *testing.T, d *Document) *Document {
	t.Helper()
	c := *d
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Slice && !f.IsNil() {
			n := reflect.MakeSlice(f.Type(), f.Len(), f.Len())
			reflect.Copy(n, f)
			f.Set(n)
		}
	}
	for i := range c.Workloads {
		c.Workloads[i].Mounts = append([]Mount(nil), c.Workloads[i].Mounts...)
	}
	return &c
}

func randomDocument(r *rand.Rand) *Document {
	dirs := []string{"", "a", "b", "c", "d", "e", "f", "g", "zz"}
	file := func() string {
		dir := dirs[r.IntN(len(dirs))]
		name := fmt.Sprintf("f%d.yaml", r.IntN(6))
		if dir == "" {
			return name
		}
		return dir + "/x/" + name
	}
	d := &Document{Params: map[string]any{"p": 1}, Policy: &Policy{File: "policy"}, Deps: &Deps{}}
	seen := map[string]bool{}
	for range r.IntN(40) {
		// some directories hold facts but no file
		if f := file(); !seen[f] && !strings.HasPrefix(f, "zz/") {
			seen[f] = true
			d.Files = append(d.Files, File{Path: f, Kind: "k"})
		}
	}
	sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Path < d.Files[j].Path })
	for i := range r.IntN(30) {
		d.Workloads = append(d.Workloads, Workload{ID: fmt.Sprint("w", i), Loc: Loc{File: file(), Line: i}, Mounts: []Mount{{Target: "/x"}}})
	}
	tools := []string{"claude-code", "codex"}
	scopes := []string{"project", "user", "workflow"}
	for i := range r.IntN(20) {
		d.Agents = append(d.Agents, Agent{Tool: tools[r.IntN(2)], Scope: scopes[r.IntN(3)], Loc: Loc{File: file(), Line: i}})
	}
	for i := range r.IntN(10) {
		d.Images = append(d.Images, Image{Loc: Loc{File: file(), Line: i}})
		d.MCPServers = append(d.MCPServers, MCPServer{Name: fmt.Sprint("m", i), Loc: Loc{File: file()}})
		d.Raw = append(d.Raw, RawDoc{File: file(), Kind: "k", Content: i})
		d.Skipped = append(d.Skipped, SkippedObject{Kind: "Service", Loc: Loc{File: file()}})
	}
	return d
}

func splitRef(d *Document, maxFiles int) []*Document {
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

// TestPartsKeepFactsPointedTo: a fact another points into (a workload's
// egress is the Firewall fact of its script, as the firewall collector's
// Link leaves it) is copied to its part but not zeroed, so a workload
// built into a later part still reads it; the others are zeroed.
func TestPartsKeepFactsPointedTo(t *testing.T) {
	d := &Document{}
	for i := range 6 {
		dir := fmt.Sprintf("d%d", i)
		d.Files = append(d.Files, File{Path: dir + "/f"}, File{Path: dir + "/lockdown.sh"})
		d.Firewalls = append(d.Firewalls, Firewall{Loc: Loc{File: dir + "/lockdown.sh"}, Allow: []string{"pypi.org"}})
	}
	for i := range 6 {
		// a workload runs the script of the directory before its own: the
		// part holding the script is built first
		j := (i + 5) % 6
		w := Workload{ID: fmt.Sprint("w", i), Loc: Loc{File: fmt.Sprintf("d%d/f", i)}}
		if i%2 == 0 {
			w.Egress = &Egress{Script: &EgressScript{Rules: &d.Firewalls[j]}}
		}
		d.Workloads = append(d.Workloads, w)
	}
	d.Normalize()
	ps := d.Parts(2)
	if ps.Len() != 6 {
		t.Fatalf("%d parts", ps.Len())
	}
	var zeroed []string
	for i := range ps.Len() {
		p := ps.Part(i)
		for _, w := range p.Workloads {
			if w.Egress != nil && (w.Egress.Script.Rules.File == "" || len(w.Egress.Script.Rules.Allow) != 1) {
				t.Errorf("part %d: workload %s reads an emptied firewall %+v", i, w.ID, *w.Egress.Script.Rules)
			}
		}
		if i == 4 {
			for _, f := range d.Firewalls {
				if f.File == "" {
					zeroed = append(zeroed, "firewall")
				}
			}
			for _, w := range d.Workloads {
				if w.ID == "" {
					zeroed = append(zeroed, "workload")
				}
			}
		}
	}
	// Built by then: parts 0-4. Pointed to: the firewalls of d5, d1 and d3;
	// those of d0, d2 and d4 and the workloads of d0-d4 are zeroed.
	if got := fmt.Sprint(zeroed); got != "[firewall firewall firewall workload workload workload workload workload]" {
		t.Errorf("zeroed %s", got)
	}
}
