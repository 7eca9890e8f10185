# METADATA
# title: Agent sandbox can reach a container runtime socket
# description: |
#   The agent's sandbox allows Unix sockets that control the host: every socket
#   (Claude Code sandbox.network.allowAllUnixSockets) or a Docker, containerd,
#   Podman, CRI-O or BuildKit socket by name. Through the runtime socket a
#   sandboxed command starts containers that outlive the task, mounts the host
#   filesystem and escapes both the sandbox and its network rules.
# related_resources:
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandbox network settings (allowUnixSockets)
#   - ref: https://docs.docker.com/engine/security/protect-access/
#     description: Docker — protect the Docker daemon socket
# custom:
#   id: agent-unix-socket-access
#   property: disposable
#   severity: high
#   remediation: Remove allowAllUnixSockets and runtime sockets from the sandbox's allowUnixSockets. Build images with a rootless builder or a remote builder the agent cannot reach.
package rules.agent_unix_socket_access

import data.lib.agent
import data.lib.sa

sockets := {"docker.sock", "containerd.sock", "podman.sock", "crio.sock", "buildkitd.sock", "dockershim.sock"}

deny contains f if {
	some a in agent.agents
	a.allow_all_unix_sockets.value == true
	f := sa.finding(rego.metadata.chain(), a.allow_all_unix_sockets, sprintf("%s lets sandboxed commands use every Unix socket, including container runtime sockets", [agent.label(a)]))
}

deny contains f if {
	some a in agent.agents
	some s in object.get(a, "unix_sockets", [])
	is_string(s.value)
	some name in sockets
	endswith(s.value, name)
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s lets sandboxed commands use the %s socket at %s", [agent.label(a), name, s.value]))
}
