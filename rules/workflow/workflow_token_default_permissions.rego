# METADATA
# title: Agent job's token gets the repository default permissions
# description: |
#   Neither the job that runs the agent nor its workflow has a permissions
#   block, so the GITHUB_TOKEN gets the repository's default: read and write on
#   every scope for repositories and organisations created before February 2023
#   unless someone changed it, read-only after. The audit cannot see that
#   setting, so it cannot tell whether the agent holds a write token — a
#   permissions block makes the answer part of the reviewed code. (Split from
#   workflow-token-write-all so each rule keeps one severity.)
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
#     description: GitHub — GITHUB_TOKEN permissions and the repository default
#   - ref: https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository
#     description: GitHub — setting the default workflow permissions for a repository
# custom:
#   id: workflow-token-default-permissions
#   property: credentials
#   severity: medium
#   remediation: Add a permissions block to the agent's job (or the workflow) naming only the scopes it needs, e.g. contents read and pull-requests write, and set the repository's default workflow permissions to read.
package rules.workflow_token_default_permissions

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	"default" in object.get(j, "effective_write", [])
	not workflow.copilot_setup(w)
	f := sa.finding(rego.metadata.chain(), j, sprintf("%s runs an agent and no permissions block limits its token: it gets the repository default, which is read and write on older repositories and organisations", [workflow.job_label(w, j)]))
}
