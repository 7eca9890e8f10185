package rules.live_privileged_container_test

import data.rules.live_privileged_container as r

doc(kind, priv) := {"live": {
	"isolation": {"kind": kind},
	"privileges": {"privileged": priv, "privileged_signs": ["all capabilities effective", "seccomp disabled"], "file": "live/privileges", "line": 1},
}}

test_privileged_fires if {
	some f in r.deny with input as doc("container", true)
	f.severity == "critical"
	contains(f.message, "seccomp disabled")
}

test_unprivileged_quiet if count(r.deny) == 0 with input as doc("container", false)

# Root with every capability inside a microVM is the VM's own root.
test_vm_quiet if count(r.deny) == 0 with input as doc("firecracker", true)
