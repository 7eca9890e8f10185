package rules.live_host_network_test

import data.rules.live_host_network as r

doc(kind, signs) := {"live": {
	"isolation": {"kind": kind, "runtime": "docker", "file": "live/isolation", "line": 1},
	"privileges": {"host_namespace_signs": signs, "file": "live/privileges", "line": 1},
}}

test_host_interface_fires if {
	fs := r.deny with input as doc("container", ["pid: kthreadd is visible as PID 2", "net: host interface docker0 is visible"])
	count(fs) == 1
	some f in fs
	f.rule_id == "live-host-network"
	f.property == "network"
	f.severity == "high"
	f.message == "the sandbox runs in the host's network namespace (host interface docker0 is visible): it reaches every host service and leaves by the host's routes"
}

test_pid_only_and_not_container_quiet if {
	count(r.deny) == 0 with input as doc("container", ["pid: kthreadd is visible as PID 2"])
	count(r.deny) == 0 with input as doc("vm", ["net: host interface docker0 is visible"])
}
