# METADATA
# title: Live sandbox is on the host's network
# description: |
#   From inside the container the host's own interfaces (docker0, veth…, cni0)
#   or the runtime's abstract sockets are visible: it runs in the host's
#   network namespace (--network host, hostNetwork). It reaches every service
#   the host listens on, loopback included, and leaves by the host's routes:
#   no pod network policy or per-container firewall applies to it. This is
#   positive evidence, so the network property fails without probes.
# related_resources:
#   - ref: https://docs.docker.com/engine/network/drivers/host/
#     description: Docker — host network driver
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — host namespaces
# custom:
#   id: live-host-network
#   property: network
#   severity: high
#   remediation: Remove --network host (Docker) or hostNetwork true (Kubernetes); give the sandbox its own network namespace with egress denied by default and an allowlisting proxy.
package rules.live_host_network

import data.lib.live
import data.lib.sa

deny contains f if {
	live.in_container
	signs := [s | some s in input.live.privileges.host_namespace_signs; startswith(s, "net:")]
	count(signs) > 0
	f := sa.finding(rego.metadata.chain(), input.live.privileges, sprintf("the sandbox runs in the host's network namespace (%s): it reaches every host service and leaves by the host's routes", [trim_prefix(signs[0], "net: ")]))
}
