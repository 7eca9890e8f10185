# METADATA
# title: Agent workflow merges pull requests automatically
# description: |
#   A workflow that runs or prepares an agent enables auto-merge or merges pull
#   requests itself (gh pr merge, --auto, an auto-merge action). An agent's pull
#   request — or one a prompt injection steered — then reaches the target branch
#   as soon as checks pass, and the one review this whole setup relies on never
#   happens.
# related_resources:
#   - ref: https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/incorporating-changes-from-a-pull-request/automatically-merging-a-pull-request
#     description: GitHub — auto-merge merges as soon as requirements are met
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets requiring human review
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-01-Insufficient-Flow-Control-Mechanisms
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-1 Insufficient Flow Control Mechanisms
# custom:
#   id: workflow-auto-merge
#   property: review
#   severity: critical
#   remediation: Remove the merge step; require an approving review from a person (not a bot or the agent's token) in a ruleset on the target branch before anything merges.
package rules.workflow_auto_merge

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some m in object.get(j, "auto_merge", [])
	f := sa.finding(rego.metadata.chain(), m, sprintf("%s merges pull requests without a person's review (%v)", [workflow.job_label(w, j), workflow.short(m.value)]))
}
