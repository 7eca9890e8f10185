# METADATA
# title: Live sandbox reached out and nothing was blocked
# description: |
#   The audit probed (--probe): the sandbox has a default route, no proxy
#   variable, and no probed destination was blocked, so nothing stands
#   between the agent and the internet. Without probes a default route is no
#   evidence either way — egress is often filtered upstream, invisibly from
#   inside — and the network property stays unknown, saying why, instead of
#   failing here.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — NetworkPolicy
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-or-disabling-the-firewall-for-copilot-coding-agent
#     description: Copilot coding agent — firewall
# custom:
#   id: live-no-egress-control
#   property: network
#   severity: high
#   remediation: Deny egress by default and route allowed traffic through an allowlisting proxy; verify with --probe and expect_blocked targets in the policy.
package rules.live_no_egress_control

import data.lib.sa

deny contains f if {
	n := input.live.network
	n.probed == true
	count(n.default_routes) > 0
	count(n.proxies) == 0
	not some_blocked(n)
	routes := [sprintf("%s via %s (%s)", [r.iface, r.gateway, r.family]) | some r in n.default_routes]
	f := sa.finding(
		rego.metadata.chain(), n,
		sprintf("default route %s, no proxy, and no probed destination was blocked", [concat(", ", sort(routes))]),
	)
}

some_blocked(n) if {
	some p in n.probes
	p.expect == "blocked"
	not p.reachable
}
