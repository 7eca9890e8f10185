# METADATA
# title: Live sandbox is a plain container sharing the host kernel
# description: |
#   The live audit found a namespace-only container (runc and friends): the
#   agent's system calls go straight into the host's kernel, so one kernel
#   bug or one of the privileges other live rules report is a host
#   compromise. User-space kernels (gVisor) and microVMs (Kata, Firecracker)
#   are built for running untrusted code. A container inside a VM shares
#   the VM's kernel instead (live-shared-vm-kernel, lower).
# related_resources:
#   - ref: https://gvisor.dev/docs/
#     description: gVisor — an application kernel for containers
#   - ref: https://katacontainers.io/
#     description: Kata Containers — containers in lightweight VMs
#   - ref: https://firecracker-microvm.github.io/
#     description: Firecracker — microVMs for multi-tenant workloads
# custom:
#   id: live-shared-kernel
#   property: disposable
#   severity: medium
#   remediation: Run the sandbox under gVisor, Kata Containers or Firecracker, or in a VM per task.
package rules.live_shared_kernel

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	not live.in_vm
	f := sa.finding(
		rego.metadata.chain(), input.live.isolation,
		sprintf("the sandbox is a plain container, %s: it shares the host kernel", [live.isolation]),
	)
}
