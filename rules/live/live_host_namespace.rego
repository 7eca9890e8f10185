# METADATA
# title: Live sandbox shares the host's PID namespace
# description: |
#   From inside the container the host's processes (kernel threads) are
#   visible: --pid=host lets the agent signal, trace and inspect every host
#   process and read their environments. The host's network namespace is
#   reported by live-host-network.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — host namespaces
#   - ref: https://docs.docker.com/engine/network/drivers/host/
#     description: Docker — host network driver
# custom:
#   id: live-host-namespace
#   property: disposable
#   severity: high
#   remediation: Remove hostPID/hostNetwork (Kubernetes) or --pid=host/--network=host (Docker).
package rules.live_host_namespace

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	some sign in input.live.privileges.host_namespace_signs
	not startswith(sign, "net:") # live-host-network, a network finding
	f := sa.finding(rego.metadata.chain(), input.live.privileges, sprintf("the sandbox shares a host namespace: %s", [sign]))
}
