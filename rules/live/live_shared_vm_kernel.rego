# METADATA
# title: Live sandbox is a plain container sharing its VM's kernel
# description: |
#   The live audit found a namespace-only container (runc and friends)
#   inside a virtual machine. The VM keeps the physical host and other VMs
#   out of the agent's reach, so this weighs less than a container on a
#   shared host (live-shared-kernel); but the kernel the agent's system
#   calls reach is the VM's, which runs the container engine and every other
#   container scheduled there. One kernel bug, or one of the privileges
#   other live rules report, reaches them and whatever the VM keeps from
#   one task to the next. A VM per task, or a user-space kernel (gVisor)
#   in it, isolates the task itself.
# related_resources:
#   - ref: https://firecracker-microvm.github.io/
#     description: Firecracker — microVMs for multi-tenant container workloads
#   - ref: https://gvisor.dev/docs/
#     description: gVisor — an application kernel for containers
# custom:
#   id: live-shared-vm-kernel
#   property: disposable
#   severity: low
#   remediation: Give each task its own microVM (Kata Containers, Firecracker) or run the container under gVisor inside the VM.
package rules.live_shared_vm_kernel

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	some vm in object.get(input.live.isolation, "layers", [])
	name := live.vm_names[vm]
	f := sa.finding(
		rego.metadata.chain(), input.live.isolation,
		sprintf("the sandbox is a plain container, %s, inside a %s: it shares the VM's kernel with the engine and every other container there", [live.isolation, name]),
	)
}
