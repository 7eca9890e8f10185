package kubernetes

import (
	"slices"
	"strings"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// tri is a three-valued truth: a selector may depend on a label the scan
// cannot know (one a controller adds at run time, a namespace's labels when
// the Namespace object is not in the scan).
type tri uint8

const (
	no tri = iota
	yes
	maybe
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

func and(a, b tri) tri {
	switch {
	case a == no || b == no:
		return no
	case a == maybe || b == maybe:
		return maybe
	}
	return yes
}

func or(a, b tri) tri {
	switch {
	case a == yes || b == yes:
		return yes
	case a == maybe || b == maybe:
		return maybe
	}
	return no
}

func not(a tri) tri {
	switch a {
	case yes:
		return no
	case no:
		return yes
	}
	return maybe
}

// labeler answers what a label of the pod is: its value, whether it is set,
// and whether the scan knows (false: it may be set at run time).
type labeler func(key string) (value string, set, known bool)

// runtimeLabels are set on pods by their controllers, not in the manifest:
// a selector on them can neither be confirmed nor ruled out.
var runtimeLabels = map[string]bool{
	"pod-template-hash": true, "controller-revision-hash": true,
	"statefulset.kubernetes.io/pod-name": true, "apps.kubernetes.io/pod-index": true,
	"controller-uid": true, "job-name": true, "batch.kubernetes.io/controller-uid": true,
	"batch.kubernetes.io/job-name": true, "batch.kubernetes.io/job-completion-index": true,
}

// podLabels is the labeler of a workload's pod labels: a label written in
// the template is known; one a controller adds (runtimeLabels, and
// agent-sandbox's agents.x-k8s.io/ labels on its sandboxes) is unknown;
// any other absent label is known to be absent.
func podLabels(w *model.Workload) labeler {
	return func(k string) (string, bool, bool) {
		if v, ok := w.Labels[k]; ok {
			return v, true, true
		}
		if runtimeLabels[k] || (w.Role == "agent" && strings.HasPrefix(k, "agents.x-k8s.io/")) {
			return "", false, false
		}
		return "", false, true
	}
}

// matchSelector evaluates a Kubernetes label selector. An unknown operator
// matches nothing, as the API server would have refused the object.
func matchSelector(s model.LabelSelector, get labeler) tri {
	r := yes
	for k, v := range s.MatchLabels {
		got, set, known := get(k)
		if !known {
			r = and(r, maybe)
			continue
		}
		r = and(r, triOf(set && got == v))
	}
	for _, e := range s.MatchExpressions {
		got, set, known := get(e.Key)
		if !known {
			r = and(r, maybe)
			continue
		}
		switch e.Operator {
		case "In":
			r = and(r, triOf(set && slices.Contains(e.Values, got)))
		case "NotIn":
			r = and(r, triOf(!set || !slices.Contains(e.Values, got)))
		case "Exists":
			r = and(r, triOf(set))
		case "DoesNotExist":
			r = and(r, triOf(!set))
		default:
			return no
		}
		if r == no {
			return no
		}
	}
	return r
}

// nsLabeler is the labeler of a namespace's labels: known when the
// Namespace object is in the scan; otherwise only the labels Kubernetes
// (kubernetes.io/metadata.name) and Calico (projectcalico.org/name) set
// from the name are known.
func nsLabeler(name string, labels map[string]string, found bool) labeler {
	return func(k string) (string, bool, bool) {
		if k == "kubernetes.io/metadata.name" || k == "projectcalico.org/name" {
			return name, true, true
		}
		if !found {
			return "", false, false
		}
		v, ok := labels[k]
		return v, ok, true
	}
}
