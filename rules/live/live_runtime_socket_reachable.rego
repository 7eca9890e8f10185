# METADATA
# title: Container runtime API reachable from the live sandbox
# description: |
#   A Docker, Podman, containerd, CRI-O, BuildKit or kubelet API answered a
#   read-only probe from inside the sandbox. Whoever can talk to it can start
#   privileged containers that mount the host and outlive the task: the
#   sandbox is neither a boundary nor disposable.
# related_resources:
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the Docker daemon socket
#   - ref: https://docs.docker.com/engine/security/#docker-daemon-attack-surface
#     description: Docker — daemon attack surface
# custom:
#   id: live-runtime-socket-reachable
#   property: disposable
#   severity: critical
#   remediation: Remove the socket mount or DOCKER_HOST endpoint from the sandbox; build with a rootless builder inside it or a remote builder it cannot reach.
package rules.live_runtime_socket_reachable

import data.lib.live
import data.lib.sa

deny contains f if {
	some s in input.live.sockets
	s.reachable
	f := sa.finding(
		rego.metadata.chain(), s,
		sprintf("the %s API at %s answers from inside the sandbox", [s.kind, live.socket_name(s)]),
	)
}
