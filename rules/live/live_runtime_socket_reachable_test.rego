package rules.live_runtime_socket_reachable_test

import data.rules.live_runtime_socket_reachable as r

sock(reachable) := {"path": "/var/run/docker.sock", "kind": "docker", "found": "mount", "probed": true, "reachable": reachable, "file": "live/sockets", "line": 1}

test_reachable_fires if {
	some f in r.deny with input as {"live": {"sockets": [sock(true)]}}
	f.message == "the docker API at /var/run/docker.sock answers from inside the sandbox"
	f.file == "live/sockets"
}

test_endpoint_named if {
	s := {"endpoint": "10.0.0.5:2375", "kind": "docker", "reachable": true, "file": "live/sockets", "line": 1}
	some f in r.deny with input as {"live": {"sockets": [s]}}
	contains(f.message, "10.0.0.5:2375")
}

test_unreachable_quiet if count(r.deny) == 0 with input as {"live": {"sockets": [sock(false)]}}
