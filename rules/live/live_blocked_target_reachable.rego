# METADATA
# title: Destination the policy expects blocked is reachable
# description: |
#   An active probe reached a destination the policy lists under
#   expect_blocked: the sandbox's egress is wider than intended, and
#   whatever the agent reads can leave through it.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — NetworkPolicy (deny egress by default, allow named destinations)
#   - ref: https://docs.anthropic.com/en/docs/claude-code/sandboxing
#     description: Claude Code — sandbox network allowlist
# custom:
#   id: live-blocked-target-reachable
#   property: network
#   severity: high
#   remediation: Deny egress by default (NetworkPolicy, firewall, an allowlisting proxy) and allow only the destinations the task needs.
package rules.live_blocked_target_reachable

import data.lib.sa

deny contains f if {
	some p in input.live.network.probes
	p.expect == "blocked"
	p.reachable
	not p.metadata
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s should be blocked but is reachable (%s)", [p.target, p.kind]))
}
