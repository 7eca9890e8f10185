package rules.live_runtime_socket_present_test

import data.rules.live_runtime_socket_present as r

sock(extra) := object.union({"path": "/var/run/docker.sock", "kind": "docker", "found": "mount", "probed": false, "reachable": false, "file": "live/sockets", "line": 1}, extra)

test_placeholder_fires if {
	some f in r.deny with input as {"live": {"sockets": [sock({"error": "not a socket"})]}}
	f.message == "a docker socket is present at /var/run/docker.sock (found by mount) but was not verified: not a socket"
}

test_unprobed_endpoint_fires if {
	s := {"endpoint": "10.0.0.5:2375", "kind": "docker", "found": "env DOCKER_HOST", "probed": false, "reachable": false, "evidence": "tcp endpoint not probed (active probes are off)", "file": "live/sockets", "line": 1}
	count(r.deny) == 1 with input as {"live": {"sockets": [s]}}
}

test_dead_socket_quiet if count(r.deny) == 0 with input as {"live": {"sockets": [sock({"probed": true, "error": "connection refused"})]}}

test_reachable_reported_elsewhere if count(r.deny) == 0 with input as {"live": {"sockets": [sock({"probed": true, "reachable": true})]}}
