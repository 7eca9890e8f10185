# METADATA
# title: Checkout leaves its token where the agent can read it
# description: |
#   actions/checkout keeps the token it fetched with (persist-credentials
#   defaults to true) in the repository's git configuration or a credentials
#   file it includes, for the rest of the job. In a job that runs an agent, or
#   in copilot-setup-steps (which runs on the same runner right before the
#   Copilot agent), the agent can read that token and use it outside every
#   guard the agent action puts around git. The job's own token is judged
#   only when it can write something: a read-only GITHUB_TOKEN reads the one
#   repository the agent already has checked out, and ends with the job.
# related_resources:
#   - ref: https://github.com/actions/checkout
#     description: actions/checkout — persist-credentials
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
#     description: GitHub — security hardening for GitHub Actions
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-the-development-environment-for-copilot-coding-agent
#     description: GitHub — copilot-setup-steps runs before the Copilot coding agent
# custom:
#   id: workflow-checkout-persists-credentials
#   property: credentials
#   severity: medium
#   remediation: Set persist-credentials false on the checkout step, and pass a token only to the steps that need it (the agent action manages its own).
package rules.workflow_checkout_persists_credentials

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	some c in object.get(j, "checkouts", [])
	c.persist_credentials == true
	not _read_only_job_token(j, c)
	f := sa.finding(rego.metadata.chain(), c, sprintf("%s checks out with persist-credentials on: %s stays in the git configuration where the agent can read it", [workflow.job_label(w, j), _token(c)]))
}

# The checkout persists the job's token, whose permissions are known to
# write nothing (an unknown default lists "default"). id-token: write lets
# the job ask for an OIDC token through the runner's own variables, not
# through the token in the git configuration.
_read_only_job_token(j, c) if {
	object.get(c, "token", "") == ""
	is_array(j.effective_write)
	count({s | some s in j.effective_write; s != "id-token"}) == 0
}

_token(c) := sprintf("the token from %s", [t]) if {
	t := object.get(c, "token", "")
	t != ""
} else := "the job's GITHUB_TOKEN"
