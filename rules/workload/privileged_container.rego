# METADATA
# title: Privileged container
# description: |
#   A privileged container gets every Linux capability, every host device and no
#   seccomp, AppArmor or device-cgroup limits. Code in it can mount the host's
#   disks, load kernel modules and escape to the host in a few commands, so what
#   the agent does there does not stay inside a sandbox that can be thrown away.
# related_resources:
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker — runtime privilege and Linux capabilities
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — privileged containers are disallowed from Baseline up
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet
#   - ref: https://www.cisecurity.org/benchmark/docker
#     description: CIS Docker Benchmark — 5.x ensure privileged containers are not used
# custom:
#   id: privileged-container
#   property: disposable
#   severity: critical
#   remediation: Remove privileged (compose privileged, securityContext.privileged, devcontainer "privileged" / --privileged). Add only the capability the task needs, or run the agent in a user-space kernel (gVisor) or microVM (Kata, Firecracker) if it must build containers.
package rules.privileged_container

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in input.workloads
	wl.is_true(w, "privileged")
	f := wl.result(rego.metadata.chain(), w, w.privileged,
		sprintf("%s runs privileged: it has every host device and capability and no seccomp or AppArmor confinement", [wl.label(w)]),
	)
}
