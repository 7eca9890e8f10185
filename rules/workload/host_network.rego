# METADATA
# title: Host network namespace shared
# description: |
#   A workload on the host's network stack bypasses every container network
#   control: no bridge, no internal network, no NetworkPolicy applies to it. It
#   can reach whatever the host can (cloud metadata endpoint, services bound to
#   the host's loopback, the local network) and listen on the host's interfaces,
#   so outbound traffic is no longer constrained.
# related_resources:
#   - ref: https://docs.docker.com/engine/network/drivers/host/
#     description: Docker — host network driver removes network isolation
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline disallows hostNetwork
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — NetworkPolicies do not apply to hostNetwork pods
#   - ref: https://www.cisecurity.org/benchmark/docker
#     description: CIS Docker Benchmark — 5.x ensure the host's network namespace is not shared
# custom:
#   id: host-network
#   property: network
#   severity: high
#   remediation: Remove hostNetwork (Kubernetes), network_mode host (compose) and --network=host (devcontainer runArgs). Put the sandbox on its own network with default-deny egress and named exceptions, or network none.
package rules.host_network

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	wl.is_true(w, "host_network")
	f := sa.finding(rego.metadata.chain(), w.host_network, msg(w))
}

deny contains f if {
	some w in wl.judged_workloads
	wl.str(w, "network_mode") == "host"
	f := sa.finding(rego.metadata.chain(), w.network_mode, msg(w))
}

# One message for both facts: when a collector records the same setting as
# both, the two findings at one location collapse into one.
msg(w) := sprintf("%s uses the host's network stack: no container network or egress policy applies to it", [wl.label(w)])
