package kubernetes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/model"
)

// skips lists a document's Skipped as "kind reason ×count".
func skips(d *model.Document) []string {
	var out []string
	for _, s := range d.Skipped {
		out = append(out, fmt.Sprintf("%s %s ×%d", s.Kind, s.Reason, s.Count))
	}
	return out
}

func TestPodSpecsAnywhere(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		ids   []string
		skips []string
	}{
		{"Knative Service", `apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: hello, namespace: web}
spec: {template: {spec: {containers: [{image: hello:1}]}}}
`, []string{"k8s:Service/web/hello/container-1"}, nil},
		{"RayCluster head and workers get their path", `apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc}
spec:
  headGroupSpec: {template: {spec: {containers: [{name: head, image: ray}]}}}
  workerGroupSpecs:
    - groupName: cpu
      template: {spec: {containers: [{name: worker, image: ray}]}}
`, []string{"k8s:RayCluster/default/rc/headGroupSpec/head", "k8s:RayCluster/default/rc/workerGroupSpecs[0]/worker"}, nil},
		{"Kubeflow PyTorchJob", `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train}
spec:
  pytorchReplicaSpecs:
    Master: {template: {spec: {containers: [{name: pytorch, image: t}]}}}
`, []string{"k8s:PyTorchJob/default/train/pytorch"}, nil},
		{"KEDA ScaledJob", `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata: {name: sj}
spec: {jobTargetRef: {template: {spec: {containers: [{name: w, image: w}]}}}}
`, []string{"k8s:ScaledJob/default/sj/w"}, nil},
		{"KServe predictor is a pod spec without template", `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: m}
spec: {predictor: {containers: [{name: kserve-container, image: m}]}}
`, []string{"k8s:InferenceService/default/m/kserve-container"}, nil},
		{"Argo Workflow templates and workflow volumes", `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: run-}
spec:
  volumes: [{name: sock, hostPath: {path: /var/run/docker.sock}}]
  templates:
    - name: build
      container: {image: docker:27, volumeMounts: [{name: sock, mountPath: /var/run/docker.sock}]}
    - name: test
      script: {image: python:3, source: "print(1)"}
    - name: steps
      steps: [[{name: a, template: build}]]
`, []string{"k8s:Workflow/default/run-/build/container-1", "k8s:Workflow/default/run-/test/container-1"}, nil},
		{"Tekton Task steps and sidecars", `apiVersion: tekton.dev/v1
kind: Task
metadata: {name: t}
spec:
  steps: [{name: build, image: golang}]
  sidecars: [{name: dind, image: docker:dind, securityContext: {privileged: true}}]
`, []string{"k8s:Task/default/t/build", "k8s:Task/default/t/dind"}, nil},
		{"Kyverno patterns are not workloads", `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: no-latest}
spec:
  rules:
    - name: r
      validate: {pattern: {spec: {containers: [{name: "*", image: "!*:latest"}]}}}
`, nil, []string{"ClusterPolicy " + reasonPolicyEngine + " ×1"}},
		{"CRD definitions are not searched", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  versions:
    - name: v1
      schema: {openAPIV3Schema: {default: {spec: {containers: [{name: x, image: y}]}}}}
`, nil, []string{"CustomResourceDefinition " + reasonNoPodSpec + " ×1"}},
		{"kinds without pod spec are grouped", `apiVersion: v1
kind: Service
metadata: {name: a}
---
apiVersion: v1
kind: Service
metadata: {name: b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r}
`, nil, []string{"Service " + reasonNoPodSpec + " ×2", "ConfigMap " + reasonNoPodSpec + " ×1", "Role " + reasonNoPodSpec + " ×1"}},
		{"a CRD with no pod spec is listed", `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: vm}
spec: {template: {spec: {domain: {devices: {}}}}}
`, nil, []string{"VirtualMachine " + reasonNotFound + " ×1"}},
		{"a Deployment without containers is listed", `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec: {template: {spec: {containers: []}}}
`, nil, []string{"Deployment " + reasonNoContainers + " ×1"}},
		{"a containers list of strings is no pod spec", `apiVersion: example.com/v1
kind: Thing
metadata: {name: t}
spec: {containers: [a, b]}
`, nil, []string{"Thing " + reasonNotFound + " ×1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collectFiles(t, map[string]string{"m.yaml": tt.yaml})
			var got []string
			for _, w := range doc.Workloads {
				got = append(got, w.ID)
			}
			if diff := cmp.Diff(tt.ids, got); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skips, skips(doc)); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// The Argo template reads the workflow's hostPath volume and the Tekton
// sidecar's privileges: the pod-level facts of these shapes come from the
// mapping that lists the containers.
func TestContainerShapesKeepFacts(t *testing.T) {
	doc := collectFiles(t, map[string]string{"wf.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: wf}
spec:
  volumes: [{name: sock, hostPath: {path: /var/run/docker.sock}}]
  templates:
    - name: build
      container: {image: docker:27, volumeMounts: [{name: sock, mountPath: /var/run/docker.sock}]}
---
apiVersion: tekton.dev/v1
kind: Task
metadata: {name: t}
spec:
  steps: [{name: build, image: golang}]
  sidecars: [{name: dind, image: docker:dind, securityContext: {privileged: true}}]
`})
	if len(doc.Workloads) != 3 {
		t.Fatalf("want 3 workloads, got %d", len(doc.Workloads))
	}
	m := doc.Workloads[0].Mounts
	if len(m) != 1 || m[0].Type != "hostPath" || m[0].Source != "/var/run/docker.sock" {
		t.Errorf("Argo template mounts = %+v, want the workflow's hostPath docker.sock", m)
	}
	if w := doc.Workloads[2]; w.Privileged == nil || !w.Privileged.Value || w.ContainerType != "sidecar" {
		t.Errorf("Tekton sidecar = %+v %q, want privileged sidecar", w.Privileged, w.ContainerType)
	}
}

// The search is bounded: a containers list nested past maxPodDepth is not
// looked for, and the object is listed instead.
func TestPodSearchDepthBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: example.com/v1\nkind: Deep\nmetadata: {name: d}\nspec:\n")
	indent := "  "
	for i := 0; i < maxPodDepth+2; i++ {
		fmt.Fprintf(&b, "%sl%d:\n", indent, i)
		indent += "  "
	}
	fmt.Fprintf(&b, "%scontainers: [{name: c, image: x}]\n", indent)
	doc := collectFiles(t, map[string]string{"d.yaml": b.String()})
	if len(doc.Workloads) != 0 {
		t.Errorf("found %d workloads past the depth bound", len(doc.Workloads))
	}
	if diff := cmp.Diff([]string{"Deep " + reasonNotFound + " ×1"}, skips(doc)); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// Skipped groups merge across files at the first occurrence.
func TestSkippedGroupsAcrossFiles(t *testing.T) {
	svc := "apiVersion: v1\nkind: Service\nmetadata: {name: %s, namespace: n}\n"
	doc := collectFiles(t, map[string]string{
		"a.yaml": fmt.Sprintf(svc, "one") + "---\n" + fmt.Sprintf(svc, "two"),
		"b.yaml": fmt.Sprintf(svc, "three"),
	})
	want := []model.SkippedObject{{
		APIVersion: "v1", Kind: "Service", Name: "n/one", Reason: reasonNoPodSpec, Count: 3,
		Loc: model.Loc{File: "a.yaml", Line: 1},
	}}
	if diff := cmp.Diff(want, doc.Skipped); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	Collector{}.Link(doc)
	if diff := cmp.Diff(want, doc.Skipped); diff != "" {
		t.Errorf("second Link (-want +got):\n%s", diff)
	}
}
