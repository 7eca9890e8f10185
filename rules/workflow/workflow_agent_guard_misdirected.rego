# METADATA
# title: The job's author check looks at the wrong person
# description: |
#   The agent job starts on a comment's or a review's text (a mention of the
#   agent) but its if: checks the author_association of the issue or pull
#   request the comment is on, not of the comment's author. Anyone who can
#   comment can comment on an issue or pull request a member opened, and
#   passes the check. Whether the agent then runs for that outsider rests on
#   the agent action's own permission check, if it has one.
# related_resources:
#   - ref: https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment
#     description: GitHub — issue_comment payload (comment and issue, each with its author_association)
#   - ref: https://securitylab.github.com/resources/github-actions-untrusted-input/
#     description: GitHub Security Lab — untrusted input in GitHub Actions
# custom:
#   id: workflow-agent-guard-misdirected
#   property: review
#   severity: medium
#   remediation: Check github.event.comment.author_association (github.event.review.author_association for reviews) — the person who wrote the text that starts the agent — or github.actor by name.
package rules.workflow_agent_guard_misdirected

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	some g in object.get(j, "guard_misdirected", [])
	f := sa.finding(rego.metadata.chain(), g, sprintf("%s: %s: an outsider's comment on a member's issue or pull request starts the agent", [workflow.job_label(w, j), g.value]))
}
