# METADATA
# title: Outsider text expanded into a script of the agent's job
# description: |
#   A run: script (or an actions/github-script script, or the CLI arguments
#   an agent action passes to its agent: claude_args, aider_args) of a job
#   that runs an agent has the runner expand an expression an outsider
#   writes — an issue's
#   or pull request's title or body, a comment, a commit message, a head
#   branch name, or a whole event object through toJson, or an earlier
#   step's output named for such text (issue-body from a step that fetched
#   the issue) — into its code
#   before it runs. A quote, $( ) or ; in that text (a branch name may hold
#   $( ) and ;) runs as commands on the agent's runner, before or beside the
#   agent, with the job's token and whatever the job's steps are given: the
#   agent's sandbox and its guardrails are bypassed without the agent being
#   involved.
#   Only expressions a trigger of the workflow fills with an outsider's text
#   are reported: issue and comment text on issues and issue_comment, pull
#   request text and head branches on pull_request_target and reviews,
#   workflow_run's; not under a plain pull_request, which runs the pull
#   request's own copy of the workflow with a read-only token and no secrets
#   for a fork; nor pull request or run heads in a job whose if: admits only
#   this repository's events (head repository == github.repository,
#   workflow_run.pull_requests[0]). The text an agent step takes as its
#   prompt is not reported either (it is not code).
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

# The events that carry each kind of outsider text, and that an outsider can
# cause. A plain pull_request is not one of them: it runs the pull request's
# own copy of the workflow (its author can rewrite the script anyway), with
# a read-only token and no secrets for a fork.
carriers := {
	"github.event.issue": {"issues", "issue_comment"},
	"github.event.comment": {"issue_comment", "pull_request_review_comment", "discussion_comment", "commit_comment"},
	"github.event.review": {"pull_request_review"},
	"github.event.review_comment": {"pull_request_review_comment"},
	"github.event.pull_request": {"pull_request_target", "pull_request_review", "pull_request_review_comment"},
	"github.head_ref": {"pull_request_target", "pull_request_review", "pull_request_review_comment"},
	"github.event.discussion": {"discussion", "discussion_comment"},
	"github.event.workflow_run": {"workflow_run"},
	"github.event.pages": {"gollum"},
}

outsider_events := {e | some es in carriers; some e in es}

_triggers(w) := {t.value | some t in object.get(w, "triggers", [])}

# _carried: some trigger of the workflow fills the expression with text an
# outsider wrote (a whole github.event: any outsider event).
_carried(w, expr) if {
	some prefix, events in carriers
	_under(expr, prefix)
	count(_triggers(w) & events) > 0
}

_carried(w, "github.event") if count(_triggers(w) & outsider_events) > 0

# An earlier step's output named for an issue's or comment's text (the
# collector takes issue-body, pr_title… for such): fetched by number, the
# text is whoever wrote the issue's, whatever started the run (a maintainer
# dispatching the fix of an outsider's issue).
_carried(_, expr) if startswith(expr, "steps.")

# A job that admits only this repository's events, not a fork's, gets pull
# request and run heads written by someone with write access.
_writers_only(j, expr) if {
	object.get(j, "same_repo_only", false) == true
	some p in {"github.event.pull_request", "github.head_ref", "github.event.workflow_run"}
	_under(expr, p)
}

_under(expr, prefix) if expr == prefix

_under(expr, prefix) if startswith(expr, concat("", [prefix, "."]))

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	some x in object.get(j, "injections", [])
	x.source == "untrusted"
	_carried(w, x.expr)
	not _writers_only(j, x.expr)
	f := sa.finding(rego.metadata.chain(), x, sprintf("%s expands ${{ %s }}, text an outsider writes, %s", [workflow.job_label(w, j), x.expr, _effect[object.get(x, "into", "")]]))
}

_effect := {
	"": "into a script: quotes, $( ) or ; in it run as commands on the agent's runner, which holds the job's token and what the agent's steps are given",
	"args": "into the agent's command-line arguments: it can add options that lift the agent's limits (--dangerously-skip-permissions, --yes, --allowedTools Bash) or, where the action runs them through a shell, commands",
}
