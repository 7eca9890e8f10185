# METADATA
# title: A privileged container, in the team's words
# description: Re-reports a built-in rule's findings under the team's id.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
# custom:
#   id: team-privileged
#   property: disposable
#   severity: high
#   remediation: Drop privileged.
package rules.team_privileged

import data.lib.sa

deny contains f if {
	some g in data.rules.privileged_container.deny
	f := object.union(g, {"rule_id": "team-privileged"})
}
