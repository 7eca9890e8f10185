package reports

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// Workload is one scanned workload with the role the scan gave it, so a
// user can see which containers were judged as the agent's sandbox and
// correct the choice in the policy file's sandboxes: section.
type Workload struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Source string `json:"source"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Role   string `json:"role"`
	Reason string `json:"reason"`
	Judged bool   `json:"judged"`
}

// WorkloadsFrom lists the document's workloads: judged ones first, then by
// file and line.
func WorkloadsFrom(ws []model.Workload) []Workload {
	out := make([]Workload, 0, len(ws))
	for _, w := range ws {
		out = append(out, Workload{ID: w.ID, Name: w.Name, Source: w.Source, File: w.File, Line: w.Line, Role: w.Role, Reason: w.RoleReason, Judged: w.Judged})
	}
	SortWorkloads(out)
	return out
}

// SortWorkloads orders workloads as WorkloadsFrom does (a stable sort):
// the lists of several documents, joined, sort as their joined document's.
func SortWorkloads(out []Workload) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Judged != b.Judged {
			return a.Judged
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// workloadRows is how many workloads the table and Markdown list; the JSON
// report has them all.
const workloadRows = 20

// workloadsLine sums the roles up: "3 (judged: 1 agent; not judged: 2
// platform)". show is false when there is nothing to correct: every
// workload is the agent's.
func workloadsLine(ws []Workload) (line string, show bool) {
	judged, other := map[string]int{}, map[string]int{}
	for _, w := range ws {
		if w.Judged {
			judged[w.Role]++
		} else {
			other[w.Role]++
		}
		if !w.Judged || w.Role != "agent" {
			show = true
		}
	}
	var parts []string
	if s := roleCounts(judged); s != "" {
		parts = append(parts, "judged: "+s)
	}
	if s := roleCounts(other); s != "" {
		parts = append(parts, "not judged: "+s)
	}
	return fmt.Sprintf("%d (%s)", len(ws), strings.Join(parts, "; ")), show
}

func roleCounts(m map[string]int) string {
	var out []string
	for _, r := range []string{"agent", "unknown", "platform"} {
		if m[r] > 0 {
			out = append(out, fmt.Sprintf("%d %s", m[r], r))
		}
	}
	return strings.Join(out, ", ")
}

// workloadName names a workload as the findings do.
func workloadName(w Workload) string {
	kind := map[string]string{"compose": "compose service", "kubernetes": "Kubernetes container", "devcontainer": "devcontainer",
		"docker": "running container", "script": "container a script starts"}[w.Source]
	if kind == "" {
		kind = "workload"
	}
	name := w.Name
	if w.Source == "kubernetes" {
		name = strings.TrimPrefix(w.ID, "k8s:")
	}
	return fmt.Sprintf("%s %s", kind, name)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
