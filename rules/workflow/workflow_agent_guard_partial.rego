# METADATA
# title: The job's author check guards only some ways in
# description: |
#   The agent job's if: checks author_association (OWNER, MEMBER,
#   COLLABORATOR) in some of its || branches but not in others that start it
#   on an outsider's text, such as a comment or issue body that mentions the
#   agent. && binds tighter than ||, so "guard && (a) || (b)" admits (b) for
#   anyone who can comment: the check the workflow's author meant to apply
#   to every event applies to one. A branch that tests who triggered it by
#   name instead (the commenter's login, github.actor) counts as checked.
#   Whether the agent then runs for that
#   outsider rests on the agent action's own permission check, if it has
#   one.
# related_resources:
#   - ref: https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/evaluate-expressions-in-workflows-and-actions#operators
#     description: GitHub — expression operators and their precedence
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — who can trigger the action
# custom:
#   id: workflow-agent-guard-partial
#   property: review
#   severity: medium
#   remediation: Put the author check around the whole condition — guard && (branch1 || branch2 || …) — or repeat it in every branch; test the condition with an event of each type from a user without write access.
package rules.workflow_agent_guard_partial

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	gaps := object.get(j, "guard_gaps", [])
	count(gaps) > 0
	f := sa.finding(rego.metadata.chain(), gaps[0], sprintf("%s checks author_association in some branches of its if: but not in %s: && binds tighter than ||, so %s the agent for anyone who can comment", [workflow.job_label(w, j), _which(gaps), _verb(gaps)]))
}

_which(gaps) := sprintf("%q", [gaps[0].value]) if count(gaps) == 1
else := sprintf("%d other branches, the first %q", [count(gaps), gaps[0].value])

_verb(gaps) := "that branch starts" if count(gaps) == 1
else := "those branches start"
