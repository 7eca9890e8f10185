package rules.live_metadata_endpoint_reachable_test

import data.rules.live_metadata_endpoint_reachable as r

probe(md, reach) := {"target": "http://169.254.169.254/latest/meta-data/", "kind": "http", "expect": "blocked", "metadata": md, "reachable": reach, "file": "live/network", "line": 1}

test_reached_fires if {
	some f in r.deny with input as {"live": {"network": {"probes": [probe(true, true)]}}}
	f.property == "network"
	f.severity == "critical"
}

test_blocked_quiet if count(r.deny) == 0 with input as {"live": {"network": {"probes": [probe(true, false)]}}}

test_not_metadata_quiet if count(r.deny) == 0 with input as {"live": {"network": {"probes": [probe(false, true)]}}}
