# METADATA
# title: Agent job can write repository contents
# description: |
#   The job that runs the agent has a token with contents write (directly or
#   through write-all). Whatever the agent runs can push commits to any branch a
#   ruleset does not protect — the default branch included — create tags and
#   releases, and so publish unreviewed code. Keeping the token out of the
#   agent step's environment (persist-credentials: false, the token only in
#   a later step) does not keep it from the agent: every step of a job runs
#   as the same runner user, with passwordless sudo on GitHub's hosted
#   runners, and the job's token and secrets can be read from the runner
#   worker's memory, as the tj-actions/changed-files compromise did in
#   March 2025; only a job without the scope is out of reach. Agent actions
#   that open pull requests need this scope; the protection must then come
#   from rulesets on the branches that matter. With scan --github, a default
#   branch whose settings require a person's review that no bypass actor
#   can skip quiets this rule (github-agent-can-merge-own-change judges the
#   pair). The Copilot coding agent's copilot-setup-steps are not judged
#   here: GitHub documents their permissions as the setup steps' token and
#   gives the agent a token of its own (a token the setup steps leave
#   behind is workflow-checkout-persists-credentials').
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
#     description: GitHub — GITHUB_TOKEN permissions
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets that require pull requests and reviews
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — token permissions
# custom:
#   id: workflow-agent-contents-write
#   property: review
#   severity: high
#   remediation: Give the agent's job contents read where it only reviews or comments; where it must push a branch, protect the default and release branches with a ruleset requiring a reviewed pull request that the token cannot bypass, or let a GitHub App token limited to the agent's branch prefix do the push.
package rules.workflow_agent_contents_write

import data.lib.github
import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	"contents" in object.get(j, "effective_write", [])
	not workflow.copilot_setup(w)
	not github.reviewed_default
	f := sa.finding(rego.metadata.chain(), workflow.perm_loc(w, j), sprintf("%s runs an agent with a token that can write contents: it can push to any unprotected branch, the default branch included", [workflow.job_label(w, j)]))
}
