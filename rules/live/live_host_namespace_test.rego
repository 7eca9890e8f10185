package rules.live_host_namespace_test

import data.rules.live_host_namespace as r

doc(kind, signs) := {"live": {
	"isolation": {"kind": kind},
	"privileges": {"host_namespace_signs": signs, "file": "live/privileges", "line": 1},
}}

test_host_pid_and_net_fire if {
	fs := r.deny with input as doc("container", ["pid: kthreadd is visible as PID 2", "net: host interface docker0 is visible"])
	count(fs) == 2
}

test_none_quiet if count(r.deny) == 0 with input as doc("container", [])

test_host_kind_quiet if count(r.deny) == 0 with input as doc("host", ["pid: kthreadd is visible as PID 2"])
