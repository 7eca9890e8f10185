# METADATA
# title: Agent job's token has write-all permissions
# description: |
#   The GITHUB_TOKEN of a job that runs or prepares an agent is granted
#   write-all, at the job or the workflow level (a workflow-level grant counts
#   when a job that runs or prepares the agent inherits it). Every scope —
#   contents, pull requests, workflows, packages, deployments — is writable by
#   whatever the agent runs, so one prompt injection can change code, releases
#   and settings at once. A job with no permissions block anywhere is reported
#   by workflow-token-default-permissions.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
#     description: GitHub — GITHUB_TOKEN permissions
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
#     description: GitHub — security hardening for GitHub Actions (least privilege)
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-02-Inadequate-Identity-And-Access-Management
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-2 Inadequate Identity and Access Management
# custom:
#   id: workflow-token-write-all
#   property: credentials
#   severity: high
#   remediation: Replace write-all with the scopes the job needs (e.g. contents read, pull-requests write) at the job level, and set permissions {} or read-all at the workflow level.
package rules.workflow_token_write_all

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	w.permissions.all == "write-all"
	_inherited_by_agent(w)
	f := sa.finding(rego.metadata.chain(), w.permissions, sprintf("%s grants its token write-all, and a job that runs or prepares the agent inherits it", [workflow.label(w)]))
}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	j.permissions.all == "write-all"
	workflow.prepares_agent(w, j)
	f := sa.finding(rego.metadata.chain(), j.permissions, sprintf("%s runs or prepares the agent with a write-all token", [workflow.job_label(w, j)]))
}

_inherited_by_agent(w) if {
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	not j.permissions
}

# Jobs not parsed: judge by the workflow.
_inherited_by_agent(w) if {
	count(workflow.jobs(w)) == 0
	workflow.runs_agent(w)
}
