package rules.live_no_egress_control_test

import data.rules.live_no_egress_control as r

route := {"family": "ipv4", "iface": "eth0", "gateway": "172.17.0.1"}

net(routes, proxies, probed, probes) := {"live": {"network": {"default_routes": routes, "proxies": proxies, "probed": probed, "probes": probes, "file": "live/network", "line": 1}}}

# A default route without probes is no evidence: the property stays
# unknown (internal/audit), no finding fails it.
test_unprobed_route_quiet if count(r.deny) == 0 with input as net([route], [], false, [])

test_probed_open_fires if {
	some f in r.deny with input as net([route], [], true, [{"expect": "reachable", "reachable": true}])
	f.message == "default route eth0 via 172.17.0.1 (ipv4), no proxy, and no probed destination was blocked"
}

test_probed_nothing_blocked_fires if {
	some f in r.deny with input as net([route], [], true, [{"expect": "blocked", "reachable": true}])
	contains(f.message, "no probed destination was blocked")
}

test_proxy_quiet if count(r.deny) == 0 with input as net([route], [{"var": "HTTPS_PROXY", "host": "proxy:3128"}], false, [])

test_blocked_probe_quiet if count(r.deny) == 0 with input as net([route], [], true, [{"expect": "blocked", "reachable": false}])

test_no_route_quiet if count(r.deny) == 0 with input as net([], [], false, [])
