# METADATA
# title: Waiver in the policy file has expired
# description: |
#   A waiver accepted a finding until a date that has passed. An expired waiver
#   waives nothing: the finding it covered counts again, and the waiver itself is
#   reported so someone decides whether to fix the finding or renew the waiver
#   with a fresh reason.
# related_resources:
#   - ref: https://github.com/sandbox-audit/sandbox-audit/blob/main/docs/policy-file.md
#     description: sandbox-audit policy file — waivers
# custom:
#   id: policy-waiver-expired
#   property: review
#   severity: medium
#   remediation: Fix the waived finding, or renew the waiver with a new expires date and a reason that still holds.
package rules.policy_waiver_expired

import data.lib.sa

deny contains f if {
	some w in object.get(object.get(input, "policy", {}), "expired_waivers", [])
	what := concat(" ", [x | some x in [
		sprintf("rule %s", [w.rule]),
		sprintf("path %s", [w.path]),
		sprintf("fingerprint %s", [w.fingerprint]),
	]; not endswith(x, " ")])
	f := sa.finding(rego.metadata.chain(), w, sprintf("waiver for %s expired on %s (reason was: %s)", [what, w.expires, w.reason]))
}
