package rules.runtime_socket_mounted_test

import data.rules.runtime_socket_mounted

test_compose_bind_fires if {
	fs := runtime_socket_mounted.deny with input as {"workloads": [{
		"name": "app",
		"mounts": [{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 7}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "runtime-socket-mounted"
	f.severity == "critical"
	f.line == 7
}

test_named_volume_quiet if {
	count(runtime_socket_mounted.deny) == 0 with input as {"workloads": [{
		"name": "app",
		"mounts": [{"source": "data", "target": "/data", "file": "compose.yaml", "line": 7}],
	}]}
}

# A platform service holding the socket is a note: info, category platform,
# with the reason it is not the agent's.
test_platform_workload_is_a_note if {
	fs := runtime_socket_mounted.deny with input as {"workloads": [{
		"name": "traefik", "source": "compose", "judged": false, "role": "platform",
		"role_reason": "its image traefik is a proxy",
		"mounts": [{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 9}],
	}]}
	count(fs) == 1
	some f in fs
	f.severity == "info"
	f.category == "platform"
	contains(f.message, "not the agent's sandbox — platform: its image traefik is a proxy")
}

# A Docker-in-Docker service the agent reaches over the network is the
# agent's runtime: the full finding.
test_reachable_runtime_api_is_a_finding if {
	fs := runtime_socket_mounted.deny with input as {"workloads": [{
		"name": "dind", "source": "compose", "judged": false, "role": "unknown", "reachable_by": "agent",
		"mounts": [{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 9}],
	}]}
	count(fs) == 1
	some f in fs
	f.severity == "critical"
	f.category == "posture"
	contains(f.message, "the agent (compose service agent) reaches its API")
}

# A variable or another host path bound where clients look for the socket
# is the socket; a named volume there is not.
test_bound_at_socket_path_fires if {
	fs := runtime_socket_mounted.deny with input as {"workloads": [{
		"name": "worker",
		"mounts": [
			{"type": "bind", "source": "${DOCKER_SOCKET}", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 7},
			{"type": "bind", "source": "/var/run/docker.sock.raw", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 8},
			{"type": "volume", "source": "sock", "target": "/var/run/docker.sock", "file": "compose.yaml", "line": 9},
		],
	}]}
	{f.line | some f in fs} == {7, 8}
}
