# METADATA
# title: Live sandbox holds capabilities beyond Docker's default set
# description: |
#   The agent's process has effective capabilities that a default container
#   does not get (SYS_ADMIN, SYS_PTRACE, NET_ADMIN, DAC_READ_SEARCH…). Each
#   widens the kernel surface a container escape starts from. Fires in a plain
#   container that is not already reported as privileged.
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man7/capabilities.7.html
#     description: capabilities(7)
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker — default capability set
# custom:
#   id: live-extra-capabilities
#   property: disposable
#   severity: high
#   remediation: Remove cap_add / capabilities.add entries the task does not need; start from drop ALL.
package rules.live_extra_capabilities

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	not input.live.privileges.privileged
	extra := input.live.privileges.caps_beyond_default
	count(extra) > 0
	f := sa.finding(
		rego.metadata.chain(), input.live.privileges,
		sprintf("the sandbox process holds capabilities beyond Docker's default set: %s", [concat(", ", extra)]),
	)
}
