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
