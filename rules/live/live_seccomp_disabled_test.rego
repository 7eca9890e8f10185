package rules.live_seccomp_disabled_test

import data.rules.live_seccomp_disabled as r

doc(kind, mode) := {"live": {
	"isolation": {"kind": kind},
	"privileges": {"privileged": false, "seccomp": mode, "file": "live/privileges", "line": 1},
}}

test_disabled_fires if count(r.deny) == 1 with input as doc("container", "disabled")

test_filter_quiet if count(r.deny) == 0 with input as doc("container", "filter")

test_unknown_quiet if count(r.deny) == 0 with input as doc("container", "")

test_gvisor_quiet if count(r.deny) == 0 with input as doc("gvisor", "disabled")
