# METADATA
# title: Host PID or IPC namespace shared
# description: |
#   With the host's PID namespace the agent sees every host process, can signal
#   them and (with ptrace rights or as root) read their memory and environment,
#   which is where other tasks' tokens live. With the host's IPC namespace it can
#   attach to the host's shared memory. Either way the sandbox is no longer a
#   separate, disposable machine.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline disallows hostPID and hostIPC
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker run reference — --pid=host and --ipc=host
#   - ref: https://docs.docker.com/reference/compose-file/services/#pid
#     description: Compose services — pid and ipc
#   - ref: https://www.cisecurity.org/benchmark/docker
#     description: CIS Docker Benchmark — 5.x ensure the host's process and IPC namespaces are not shared
# custom:
#   id: host-namespace-shared
#   property: disposable
#   severity: high
#   remediation: Remove hostPID/hostIPC (Kubernetes), pid/ipc "host" (compose) and --pid=host/--ipc=host (devcontainer runArgs); give the sandbox its own namespaces.
package rules.host_namespace_shared

import data.lib.sa
import data.lib.workload as wl

namespaces := {"host_pid": "PID", "host_ipc": "IPC"}

deny contains f if {
	some w in wl.judged_workloads
	some key, ns in namespaces
	wl.is_true(w, key)
	f := sa.finding(
		rego.metadata.chain(), w[key],
		sprintf("%s shares the host's %s namespace", [wl.label(w), ns]),
	)
}
