package rules.live_extra_capabilities_test

import data.rules.live_extra_capabilities as r

doc(kind, extra, priv) := {"live": {
	"isolation": {"kind": kind},
	"privileges": {"privileged": priv, "caps_beyond_default": extra, "file": "live/privileges", "line": 1},
}}

test_extra_fires if {
	some f in r.deny with input as doc("container", ["SYS_ADMIN", "NET_ADMIN"], false)
	f.message == "the sandbox process holds capabilities beyond Docker's default set: SYS_ADMIN, NET_ADMIN"
}

test_default_quiet if count(r.deny) == 0 with input as doc("container", [], false)

test_privileged_reported_elsewhere if count(r.deny) == 0 with input as doc("container", ["SYS_ADMIN"], true)

test_vm_quiet if count(r.deny) == 0 with input as doc("vm", ["SYS_ADMIN"], false)
