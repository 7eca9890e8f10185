# METADATA
# title: Live sandbox is a privileged container
# description: |
#   The agent's container has every capability and the signs of --privileged
#   (no seccomp, no LSM confinement, writable /sys, host devices). From such
#   a container the host is one mount or one module load away: nothing it
#   does stays in the sandbox.
# related_resources:
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker — runtime privilege and Linux capabilities
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline forbids privileged containers
# custom:
#   id: live-privileged-container
#   property: disposable
#   severity: critical
#   remediation: Drop --privileged / privileged true; add only the capabilities a tool needs, or run the tool in a microVM where root is the VM's own.
package rules.live_privileged_container

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	input.live.privileges.privileged
	f := sa.finding(
		rego.metadata.chain(), input.live.privileges,
		sprintf("the sandbox runs privileged: %s", [concat("; ", input.live.privileges.privileged_signs)]),
	)
}
