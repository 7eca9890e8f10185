# METADATA
# title: Any bot or any user can trigger the agent
# description: |
#   The agent action accepts triggers from everyone: allowed_bots "*" lets any
#   GitHub App or bot account start the agent, and allowed_non_write_users "*"
#   drops the check that the person triggering it has write access, as does
#   openai/codex-action's allow-users "*". Whoever
#   can open an issue or comment then steers an agent that holds the
#   workflow's token and secrets.
# related_resources:
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — access control (allowed_bots, allowed_non_write_users)
#   - ref: https://github.com/openai/codex-action/blob/main/docs/security.md
#     description: openai/codex-action — limiting who can run your workflow (allow-users)
#   - ref: https://securitylab.github.com/resources/github-actions-untrusted-input/
#     description: GitHub Security Lab — untrusted input in GitHub Actions
# custom:
#   id: workflow-allowed-bots-wildcard
#   property: review
#   severity: high
#   remediation: List the specific bots (e.g. dependabot[bot]) and users that may trigger the agent, or remove the inputs so only users with write access can; give any workflow that must accept outsiders no write permissions and no secrets.
package rules.workflow_allowed_bots_wildcard

import data.lib.sa
import data.lib.workflow

inputs := {
	"allowed_bots": "any bot or GitHub App",
	"allowed_non_write_users": "any user, without write access",
}

# Inputs read from the step's inputs, for actions the collector has no
# field for.
raw_inputs := {"allow-users": "any user, without write access"}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some s in object.get(j, "agent_steps", [])
	some key, who in inputs
	v := s[key]
	is_string(v.value)
	trim_space(v.value) == "*"
	f := sa.finding(rego.metadata.chain(), v, _msg(w, j, s, key, who))
}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some s in object.get(j, "agent_steps", [])
	some key, who in raw_inputs
	v := object.get(s, ["inputs", key], {})
	is_string(v.value)
	trim_space(v.value) == "*"
	f := sa.finding(rego.metadata.chain(), v, _msg(w, j, s, key, who))
}

_msg(w, j, s, key, who) := sprintf("%s: %s sets %s \"*\": %s can trigger the agent", [workflow.job_label(w, j), object.get(s, "uses", "the agent step"), key, who])
