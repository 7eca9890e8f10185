package rules.live_host_namespace_test

import data.rules.live_host_namespace as r

doc(kind, signs) := {"live": {
	"isolation": {"kind": kind},
	"privileges": {"host_namespace_signs": signs, "file": "live/privileges", "line": 1},
}}

# The host's network namespace is live-host-network's, a network finding.
test_host_pid_fires_net_left_to_its_rule if {
	fs := r.deny with input as doc("container", ["pid: kthreadd is visible as PID 2", "net: host interface docker0 is visible"])
	count(fs) == 1
	some f in fs
	contains(f.message, "pid: kthreadd")
}

test_none_quiet if count(r.deny) == 0 with input as doc("container", [])

test_host_kind_quiet if count(r.deny) == 0 with input as doc("host", ["pid: kthreadd is visible as PID 2"])
