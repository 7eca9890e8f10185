# METADATA
# title: Container runtime socket mounted into the sandbox
# description: |
#   A Docker, containerd, CRI-O, Podman or BuildKit socket gives whoever can write
#   to it root on the host. The agent can start containers that outlive the task,
#   mount the host's filesystem and read every secret on it, so nothing about the
#   sandbox stays disposable.
# related_resources:
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the Docker daemon socket
#   - ref: https://github.com/devcontainers/features/tree/main/src/docker-outside-of-docker
#     description: docker-outside-of-docker binds the host socket
# custom:
#   id: runtime-socket-mounted
#   property: disposable
#   severity: critical
#   remediation: Remove the socket mount (and docker-outside-of-docker). Build images with a rootless builder inside the sandbox or a remote builder the agent cannot reach.
package rules.runtime_socket_mounted

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in input.workloads
	some m in w.mounts
	s := wl.runtime_socket(m)
	f := wl.result(rego.metadata.chain(), w, m, sprintf("%s mounts the host's %s at %s", [w.name, s, m.target]))
}
