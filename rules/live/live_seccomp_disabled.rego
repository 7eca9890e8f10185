# METADATA
# title: Live sandbox runs without seccomp
# description: |
#   The agent's process has no seccomp filter: every system call of the host
#   kernel, including the rarely used ones most container escapes go
#   through, is open to it. Kubernetes runs pods unconfined unless
#   seccompProfile RuntimeDefault (or the kubelet's SeccompDefault) is set.
# related_resources:
#   - ref: https://kubernetes.io/docs/tutorials/security/seccomp/
#     description: Kubernetes — restrict a container's syscalls with seccomp
#   - ref: https://docs.docker.com/engine/security/seccomp/
#     description: Docker — seccomp security profiles
# custom:
#   id: live-seccomp-disabled
#   property: disposable
#   severity: high
#   remediation: Set seccompProfile type RuntimeDefault (Kubernetes) or drop seccomp=unconfined (Docker).
package rules.live_seccomp_disabled

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	not input.live.privileges.privileged
	input.live.privileges.seccomp == "disabled"
	f := sa.finding(rego.metadata.chain(), input.live.privileges, "the sandbox process runs with seccomp disabled")
}
