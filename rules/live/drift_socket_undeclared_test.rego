package rules.drift_socket_undeclared_test

import data.rules.drift_socket_undeclared as r

sock := {"path": "/var/run/docker.sock", "kind": "docker", "reachable": true, "file": "live/sockets", "line": 1}

test_undeclared_fires if {
	some f in r.deny with input as {"workloads": [{"name": "app", "mounts": []}], "live": {"sockets": [sock]}}
	f.message == "the docker API at /var/run/docker.sock answers inside the sandbox, but no scanned workload mounts a runtime socket"
}

test_declared_quiet if {
	w := {"name": "app", "mounts": [{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock"}]}
	count(r.deny) == 0 with input as {"workloads": [w], "live": {"sockets": [sock]}}
}

test_no_config_quiet if count(r.deny) == 0 with input as {"workloads": [], "live": {"sockets": [sock]}}

test_unreachable_quiet if {
	s := object.union(sock, {"reachable": false})
	count(r.deny) == 0 with input as {"workloads": [{"name": "app", "mounts": []}], "live": {"sockets": [s]}}
}
