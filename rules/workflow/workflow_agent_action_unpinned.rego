# METADATA
# title: Agent action not pinned to a commit
# description: |
#   The step runs an agent action by tag or branch (anthropics/claude-code-action@v1,
#   openai/codex-action@main) instead of a full commit SHA. Whoever can move
#   that tag — the maintainers, or an attacker who compromises them, as with
#   tj-actions/changed-files in 2025 — changes the code that runs with the
#   job's token and secrets, without a change in this repository to review.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#using-third-party-actions
#     description: GitHub — pin actions to a full-length commit SHA
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-08-Ungoverned-Usage-of-3rd-Party-Services
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-8 Ungoverned Usage of Third-Party Services
# custom:
#   id: workflow-agent-action-unpinned
#   property: review
#   severity: medium
#   remediation: Pin the action to a full commit SHA with the version in a comment (uses owner/action@<40-hex-sha> # v1.2.3) and let Dependabot or Renovate propose updates for review.
package rules.workflow_agent_action_unpinned

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some s in object.get(j, "agent_steps", [])
	s.pinned == false
	uses := object.get(s, "uses", "")
	uses != ""
	not startswith(uses, "./")
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s uses %s, which is not pinned to a commit SHA", [workflow.job_label(w, j), uses]))
}
