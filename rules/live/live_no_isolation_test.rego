package rules.live_no_isolation_test

import data.rules.live_no_isolation as r

iso(kind) := {"live": {"isolation": {"kind": kind, "runtime": "", "confidence": "medium", "file": "live/isolation", "line": 1}}}

test_host_fires if {
	some f in r.deny with input as iso("host")
	f.rule_id == "live-no-isolation"
	f.file == "live/isolation"
	f.line == 1
}

test_vm_quiet if count(r.deny) == 0 with input as iso("vm")

test_unknown_quiet if count(r.deny) == 0 with input as iso("unknown")

test_no_live_quiet if count(r.deny) == 0 with input as {"workloads": []}
