package rules.live_blocked_target_reachable_test

import data.rules.live_blocked_target_reachable as r

probe(expect, reach) := {"target": "tcp://1.1.1.1:443", "kind": "tcp", "expect": expect, "metadata": false, "reachable": reach, "file": "live/network", "line": 1}

test_reached_fires if {
	some f in r.deny with input as {"live": {"network": {"probes": [probe("blocked", true)]}}}
	f.message == "tcp://1.1.1.1:443 should be blocked but is reachable (tcp)"
}

test_blocked_quiet if count(r.deny) == 0 with input as {"live": {"network": {"probes": [probe("blocked", false)]}}}

test_allowed_quiet if count(r.deny) == 0 with input as {"live": {"network": {"probes": [probe("reachable", true)]}}}
