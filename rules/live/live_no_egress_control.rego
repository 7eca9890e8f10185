# METADATA
# title: Live sandbox has a default route and no sign of egress control
# description: |
#   The sandbox has a default route, no proxy variable, and no probe showed a
#   destination being blocked: nothing observed stands between the agent and
#   the internet. (A firewall outside the sandbox may exist: run the audit
#   with --probe and expect_blocked targets to show it.)
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
	count(n.default_routes) > 0
	count(n.proxies) == 0
	not some_blocked(n)
	routes := [sprintf("%s via %s (%s)", [r.iface, r.gateway, r.family]) | some r in n.default_routes]
	f := sa.finding(
		rego.metadata.chain(), n,
		sprintf("default route %s, no proxy, and %s", [concat(", ", sort(routes)), probe_note(n)]),
	)
}

some_blocked(n) if {
	some p in n.probes
	p.expect == "blocked"
	not p.reachable
}

probe_note(n) := "no probe ran (--probe)" if {
	not n.probed
} else := "no probed destination was blocked"
