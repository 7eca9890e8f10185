# METADATA
# title: Live sandbox reaches a runtime socket that no scanned configuration mounts
# description: |
#   The running sandbox can talk to a container runtime API, while none of
#   the scanned workload definitions mounts a runtime socket: the socket
#   comes from somewhere the configuration review never saw (a runner image,
#   a devcontainer feature, an admission webhook, a host default).
# related_resources:
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the Docker daemon socket
# custom:
#   id: drift-socket-undeclared
#   property: disposable
#   severity: high
#   remediation: Find what injects the socket into the running sandbox and remove it, or declare it in the configuration so it is reviewed.
package rules.drift_socket_undeclared

import data.lib.live
import data.lib.sa

socket_names := {"docker.sock", "containerd.sock", "crio.sock", "podman.sock", "buildkitd.sock", "dockershim.sock", "kubelet.sock"}

declared if {
	some w in input.workloads
	live.judged(w)
	some m in w.mounts
	some n in socket_names
	endswith(m.source, n)
}

declared if {
	some w in input.workloads
	live.judged(w)
	some m in w.mounts
	some n in socket_names
	endswith(m.target, n)
}

deny contains f if {
	some w in input.workloads
	live.judged(w)
	not declared
	some s in input.live.sockets
	s.reachable
	f := sa.finding(
		rego.metadata.chain(), s,
		sprintf("the %s API at %s answers inside the sandbox, but no scanned workload mounts a runtime socket", [s.kind, live.socket_name(s)]),
	)
}
