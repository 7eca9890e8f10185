# METADATA
# title: A running container has more than its compose file declares
# description: |
#   A container read from the Docker Engine (docker://) belongs to a compose
#   service of the same scan (its com.docker.compose.service label), yet runs
#   with what that service's declaration does not ask for: privileged mode,
#   the host's network or PID namespace, added capabilities, seccomp off, or a
#   mount the file does not list. What was reviewed is not what runs: someone
#   started it by hand, an override file or an old definition is in force,
#   and the sandbox's real boundary is the weaker one. Scan the compose file
#   and the running containers together (scan PATH docker://).
# related_resources:
#   - ref: https://docs.docker.com/compose/how-tos/multiple-compose-files/merge/
#     description: Docker Compose — merged and override files
#   - ref: https://docs.docker.com/reference/api/engine/version/v1.43/#tag/Container/operation/ContainerInspect
#     description: Docker Engine API — inspect a container
# custom:
#   id: drift-running-container
#   property: disposable
#   severity: high
#   remediation: Recreate the container from the reviewed file (docker compose up --force-recreate), find what started it otherwise (override files, a manual docker run), and keep the declaration and what runs the same; audit both in CI.
package rules.drift_running_container

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some r in input.workloads
	r.source == "docker"
	svc := object.get(r, ["labels", "com.docker.compose.service"], "")
	svc != ""
	some d in input.workloads
	d.source == "compose"
	d.name == svc
	extras := _extras(r, d)
	count(extras) > 0
	f := sa.finding(rego.metadata.chain(), r, sprintf("running container %s runs with %s, which compose service %s (%s:%d) does not declare", [r.name, concat(", ", extras), svc, d.file, d.line]))
}

_extras(r, d) := array.concat(array.concat(_flags(r, d), _caps(r, d)), _mounts(r, d))

_flags(r, d) := [what |
	some key, what in {"privileged": "privileged mode", "host_network": "the host's network", "host_pid": "the host's PID namespace", "host_ipc": "the host's IPC namespace"}
	wl.is_true(r, key)
	not wl.is_true(d, key)
]

_caps(r, d) := [sprintf("capability %s", [c]) |
	some c in {x.value | some x in object.get(r, "cap_add", [])} - {x.value | some x in object.get(d, "cap_add", [])}
]

_mounts(r, d) := [sprintf("mount %s at %s", [m.source, m.target]) |
	some m in object.get(r, "mounts", [])
	m.type == "bind"
	not m.target in {x.target | some x in object.get(d, "mounts", [])}
]
