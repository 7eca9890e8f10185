# METADATA
# title: Configuration declares restricted egress, but the live sandbox reached a blocked destination
# description: |
#   A scanned configuration says the sandbox's network is closed or
#   allowlisted (network_mode none, an egress NetworkPolicy, an internal
#   network, agent network access off or a domain allowlist), yet an active
#   probe from inside the running sandbox reached a destination the policy
#   expects blocked. The declared control is not the one in force.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — a NetworkPolicy needs a CNI that enforces it
#   - ref: https://docs.docker.com/engine/network/
#     description: Docker — networking (internal networks, none)
# custom:
#   id: drift-egress-reached
#   property: network
#   severity: high
#   remediation: Find which control the running sandbox actually gets (CNI without NetworkPolicy support, a different runtime profile, a proxy bypass) and enforce the declared one; re-run the audit with --probe to confirm.
package rules.drift_egress_reached

import data.lib.live
import data.lib.sa

declared contains [w.egress, sprintf("%s declares restricted egress (%s)", [live.label(w), w.egress.by])] if {
	some w in input.workloads
	live.judged(w)
	w.egress.restricted
}

declared contains [w.network_mode, sprintf("%s declares network_mode none", [live.label(w)])] if {
	some w in input.workloads
	live.judged(w)
	live.str(w, "network_mode") == "none"
}

declared contains [a.network_access, sprintf("%s settings turn network access off", [a.tool])] if {
	some a in input.agents
	live.is_false(a, "network_access")
}

declared contains [a.allowed_domains[0], sprintf("%s settings allow only %s", [a.tool, concat(", ", [d.value | some d in a.allowed_domains])])] if {
	some a in input.agents
	count(object.get(a, "allowed_domains", [])) > 0
}

deny contains f if {
	some [loc, what] in declared
	some p in input.live.network.probes
	p.expect == "blocked"
	p.reachable
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s, but the live sandbox reached %s", [what, p.target]))
}
