# METADATA
# title: Host path or writable kernel interface mounted into the live sandbox
# description: |
#   mountinfo shows a mount that reaches outside the sandbox: the host's root
#   filesystem, a host home or credentials directory (~/.ssh, ~/.aws,
#   ~/.kube), node state (/var/lib/kubelet, /var/lib/docker, /var/log), or a
#   writable /sys or /proc/sys. What the agent writes there lands on the host
#   and outlives the task; what it reads there is the host's.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/storage/volumes/#hostpath
#     description: Kubernetes — hostPath volumes and their risks
#   - ref: https://docs.docker.com/engine/storage/bind-mounts/
#     description: Docker — bind mounts
# custom:
#   id: live-sensitive-mount
#   property: disposable
#   severity: high
#   remediation: Remove the host mount; pass the one file a tool needs read-only, or a scoped short-lived credential instead of a credentials directory.
package rules.live_sensitive_mount

import data.lib.sa

reasons := {"host-root", "host-home", "credentials-dir", "host-system-dir", "sys-writable", "proc-sys-writable"}

deny contains f if {
	some m in input.live.mounts
	why := [w | some w in m.why; w in reasons]
	count(why) > 0
	mode := {true: "read-only", false: "writable"}[m.read_only]
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s is mounted %s from %s (%s)", [m.target, mode, m.source, concat(", ", why)]),
	)
}
