# METADATA
# title: Outsider text expanded into a script of the agent's job
# description: |
#   A run: script (or an actions/github-script script) of a job that runs an
#   agent has the runner expand an expression an outsider writes — an issue's
#   or pull request's title or body, a comment, a commit message, a head
#   branch name, or a whole event object through toJson — into its code
#   before it runs. A quote, $( ) or ; in that text (a branch name may hold
#   $( ) and ;) runs as commands on the agent's runner, before or beside the
#   agent, with the job's token and whatever the job's steps are given: the
#   agent's sandbox and its guardrails are bypassed without the agent being
#   involved.
#   Only workflows an outsider can trigger (issues, comments, pull requests,
#   reviews, discussions, workflow_run) are reported; the text an agent step
#   takes as its prompt is not (it is not code).
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#understanding-the-risk-of-script-injections
#     description: GitHub — understanding the risk of script injections
#   - ref: https://securitylab.github.com/resources/github-actions-untrusted-input/
#     description: GitHub Security Lab — keeping your GitHub Actions and workflows secure, untrusted input
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-04-Poisoned-Pipeline-Execution
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-4 Poisoned Pipeline Execution
# custom:
#   id: workflow-agent-job-script-injection
#   property: credentials
#   severity: medium
#   remediation: Never put ${{ }} of event text into a script. Pass it through the step's env (an env entry TITLE set to the expression) and use "$TITLE" quoted in the shell or process.env.TITLE in github-script; or write it to a file with the GitHub CLI and let the agent read the file.
package rules.workflow_agent_job_script_injection

import data.lib.sa
import data.lib.workflow

# Events an outsider (someone without write access) can cause.
outsider_events := {
	"issues", "issue_comment", "pull_request", "pull_request_target", "pull_request_review",
	"pull_request_review_comment", "discussion", "discussion_comment", "workflow_run",
}

_outsider_trigger(w) if {
	some t in object.get(w, "triggers", [])
	t.value in outsider_events
}

deny contains f if {
	some w in workflow.workflows
	_outsider_trigger(w)
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	some x in object.get(j, "injections", [])
	x.source == "untrusted"
	f := sa.finding(rego.metadata.chain(), x, sprintf("%s expands ${{ %s }}, text an outsider writes, into a script: quotes, $( ) or ; in it run as commands on the agent's runner, which holds the job's token and what the agent's steps are given", [workflow.job_label(w, j), x.expr]))
}
