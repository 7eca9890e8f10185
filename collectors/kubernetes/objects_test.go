package kubernetes

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/collectors/secrets"
	"github.com/sandbox-audit/sandbox-audit/model"
)

func loc(line int) model.Loc { return model.Loc{File: "m.yaml", Line: line} }

func ids(d *model.Document) any {
	var out []string
	for _, w := range d.Workloads {
		out = append(out, w.ID)
	}
	return out
}

func TestCollectObjects(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		get  func(*model.Document) any
		want any
	}{
		{"not kubernetes", "name: build\non: [push]\njobs: {}\n", func(d *model.Document) any { return len(d.Workloads) + len(d.Raw) }, 0},
		{"kind without apiVersion", "kind: Pod\nspec: {containers: [{name: a}]}\n", func(d *model.Document) any { return len(d.Workloads) }, 0},
		{"empty and scalar documents", "---\n---\njust text\n", func(d *model.Document) any { return len(d.Raw) }, 0},
		{"cronjob, init and ephemeral containers", `apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          initContainers: [{name: init}]
          containers: [{name: main}]
          ephemeralContainers: [{name: debug}]
`, ids, []string{"k8s:CronJob/default/nightly/init", "k8s:CronJob/default/nightly/main", "k8s:CronJob/default/nightly/debug"}},
		{"List and typed list items", `apiVersion: v1
kind: List
items:
  - apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: ds, namespace: kube-system}
    spec: {template: {spec: {containers: [{name: c}]}}}
---
apiVersion: v1
kind: PodList
items:
  - metadata: {name: p}
    spec: {containers: [{name: c}]}
`, ids, []string{"k8s:DaemonSet/kube-system/ds/c", "k8s:Pod/default/p/c"}},
		{"a CRD's pod spec is read whatever its kind", `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: x}
spec: {template: {spec: {containers: [{name: c}]}}}
`, ids, []string{"k8s:Rollout/default/x/c"}},
		{"container securityContext wins over pod", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  securityContext: {runAsUser: 0, runAsNonRoot: false, seccompProfile: {type: Unconfined}}
  containers:
    - name: c
      securityContext: {runAsUser: 1000, runAsNonRoot: true, seccompProfile: {type: Localhost, localhostProfile: agent.json}}
    - name: d
`, func(d *model.Document) any {
			var out []any
			for _, w := range d.Workloads {
				out = append(out, w.User, w.RunAsNonRoot, w.Seccomp)
			}
			return out
		}, []any{
			&model.Str{Value: "1000", Loc: loc(8)}, &model.Bool{Value: true, Loc: loc(8)}, &model.Str{Value: "localhost/agent.json", Loc: loc(8)},
			&model.Str{Value: "0", Loc: loc(5)}, &model.Bool{Value: false, Loc: loc(5)}, &model.Str{Value: "unconfined", Loc: loc(5)},
		}},
		{"seccomp annotations below fields", `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    seccomp.security.alpha.kubernetes.io/pod: docker/default
    container.seccomp.security.alpha.kubernetes.io/b: unconfined
spec:
  containers: [{name: a}, {name: b}]
`, func(d *model.Document) any { return []*model.Str{d.Workloads[0].Seccomp, d.Workloads[1].Seccomp} },
			[]*model.Str{{Value: "runtime/default", Loc: loc(6)}, {Value: "unconfined", Loc: loc(7)}}},
		{"YAML 1.1 booleans as Kubernetes reads them; quoted is not a bool", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  hostPID: yes
  hostIPC: "true"
  containers: [{name: c, securityContext: {privileged: On}}]
`, func(d *model.Document) any {
			w := d.Workloads[0]
			return []*model.Bool{w.HostPID, w.HostIPC, w.Privileged}
		}, []*model.Bool{{Value: true, Loc: loc(5)}, nil, {Value: true, Loc: loc(7)}}},
		{"merge keys and anchors", `base: &sc
  privileged: true
  capabilities: {add: [cap_sys_admin]}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      securityContext:
        <<: {privileged: true, capabilities: {add: [cap_sys_admin]}}
        privileged: false
`, func(d *model.Document) any {
			w := d.Workloads[0]
			return []any{w.Privileged, w.CapAdd}
		}, []any{&model.Bool{Value: false, Loc: loc(13)}, []model.Str{{Value: "SYS_ADMIN", Loc: loc(12)}}}},
		{"runtime class names", `apiVersion: v1
kind: List
items:
  - {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {runtimeClassName: kata-qemu, containers: [{name: c}]}}
  - {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {runtimeClassName: Fast, containers: [{name: c}]}}
  - {apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {runtimeClassName: sandboxed, containers: [{name: c}]}}
  - {apiVersion: v1, kind: Pod, metadata: {name: d}, spec: {runtimeClassName: isolated, containers: [{name: c}]}}
  - {apiVersion: node.k8s.io/v1, kind: RuntimeClass, metadata: {name: sandboxed}, handler: runc}
  - {apiVersion: node.k8s.io/v1, kind: RuntimeClass, metadata: {name: isolated}, handler: runsc}
`, func(d *model.Document) any {
			var out []string
			for _, w := range d.Workloads {
				out = append(out, w.Runtime.Value)
			}
			return out
		}, []string{"kata", "fast", "runc", "gvisor"}},
		{"StatefulSet claim templates, projected token, subPath, unknown volume", `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec:
  volumeClaimTemplates: [{metadata: {name: data}}]
  template:
    spec:
      volumes:
        - {name: tok, projected: {sources: [{serviceAccountToken: {path: token}}, {secret: {name: db}}]}}
        - {name: root, hostPath: {path: /}}
        - {name: share, nfs: {server: nas, path: /x}}
      containers:
        - name: c
          volumeMounts:
            - {name: data, mountPath: /data}
            - {name: tok, mountPath: /var/run/tok}
            - {name: root, mountPath: /etc-host, subPath: etc}
            - {name: share, mountPath: /share}
            - {name: missing, mountPath: /m}
`, func(d *model.Document) any { return d.Workloads[0].Mounts }, []model.Mount{
			{Type: "pvc", Source: "data", Target: "/data", Persistent: true, Loc: loc(15)},
			{Type: "projected", Source: "secret:db,serviceAccountToken", Target: "/var/run/tok", Loc: loc(16)},
			{Type: "hostPath", Source: "/etc", Target: "/etc-host", Persistent: true, Loc: loc(17)},
			{Type: "nfs", Target: "/share", Persistent: true, Loc: loc(18)},
			{Type: "unknown", Source: "missing", Target: "/m", Loc: loc(19)},
		}},
		{"Secret data is decoded before detection", `apiVersion: v1
kind: Secret
metadata: {name: s, namespace: ci}
data:
  token: Z2hwX3U4anpQZGUwSWd4TGQ2R25jZkJBZXBmSkJkMEtoOG9PT0w4ZA==
  user: YWRtaW4=
`, func(d *model.Document) any {
			var out []string
			for _, c := range d.Credentials {
				out = append(out, c.Kind+" "+c.Where+" "+c.Context)
			}
			return out
		}, []string{secrets.DetectNamed("token", "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d").Kind + " file Kubernetes Secret ci/s key token"}},
		{"command args with a literal token", `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      command: [agent]
      args: ["--token", "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"]
`, func(d *model.Document) any {
			return []any{d.Workloads[0].Commands, len(d.Credentials), d.Credentials[0].Loc}
		},
			[]any{[]model.Command{{Phase: "entrypoint", Text: "agent --token " + secrets.Redact("ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"), Loc: loc(7)}}, 1, loc(8)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := collectFiles(t, map[string]string{"m.yaml": tt.yaml})
			if diff := cmp.Diff(tt.want, tt.get(doc)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
