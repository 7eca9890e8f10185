# METADATA
# title: Any action may run, unpinned
# description: |
#   The repository runs an agent in its workflows, allows every action and
#   does not require actions to be pinned to a full commit SHA. A tag of any
#   action can be moved to code its owner (or an attacker who took it over)
#   wrote later, and it runs beside the agent with the job's token.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository#managing-github-actions-permissions-for-your-repository
#     description: GitHub — allowed actions and SHA pinning
# custom:
#   id: github-unpinned-actions-allowed
#   property: review
#   severity: low
#   remediation: Allow only selected actions, or turn on "Require actions to be pinned to a full-length commit SHA".
package rules.github_unpinned_actions_allowed

import data.lib.github
import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	workflow.runs_agent(w)
	github.actions.allowed_actions == "all"
	not github.actions.sha_pinning_required == true
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s allows every action, unpinned, in workflows that run an agent", [github.label]))
}
