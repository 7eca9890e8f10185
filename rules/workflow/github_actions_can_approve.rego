# METADATA
# title: GitHub Actions may approve pull requests
# description: |
#   "Allow GitHub Actions to create and approve pull requests" is on: a
#   workflow's GITHUB_TOKEN can approve a pull request, so an agent's pull
#   request can be approved by a workflow the agent's change triggers, and a
#   required review is met with no person looking.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository#preventing-github-actions-from-creating-or-approving-pull-requests
#     description: GitHub — preventing Actions from creating or approving pull requests
# custom:
#   id: github-actions-can-approve
#   property: review
#   severity: high
#   remediation: Turn off "Allow GitHub Actions to create and approve pull requests" (Settings, Actions, General, Workflow permissions) for the repository and its organisation.
package rules.github_actions_can_approve

import data.lib.github
import data.lib.sa

deny contains f if {
	github.can_approve
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s lets GitHub Actions approve pull requests: a workflow's token can satisfy a required review", [github.label]))
}
