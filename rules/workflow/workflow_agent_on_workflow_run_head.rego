# METADATA
# title: Agent runs on a pull request's code in a workflow_run job
# description: |
#   The workflow runs on workflow_run — with the base repository's token and
#   secrets, after a workflow any fork's pull request can start — and the job
#   that runs the agent checks out the triggering run's head
#   (github.event.workflow_run.head_sha or head_commit, or the
#   head_repository). The agent then reads, builds and follows files the
#   pull request's author wrote while holding a privileged token: the same
#   class of hole as pull_request_target with a checkout of the pull
#   request's head. A checkout of head_branch alone fetches the base
#   repository's branch of that name, not the fork's code, and is not
#   reported.
#   A job that deploys to an environment whose required reviewers approve
#   each run (read with scan --github) is not reported.
# related_resources:
#   - ref: https://securitylab.github.com/resources/github-actions-preventing-pwn-requests/
#     description: GitHub Security Lab — Preventing pwn requests (workflow_run)
#   - ref: https://docs.github.com/en/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows#workflow_run
#     description: GitHub — workflow_run runs with the base repository's token and secrets
#   - ref: https://github.com/openai/codex-action/blob/main/docs/security.md
#     description: openai/codex-action — do not execute fork-controlled code in privileged workflows
# custom:
#   id: workflow-agent-on-workflow-run-head
#   property: review
#   severity: critical
#   remediation: Let the agent read the pull request only through an unprivileged pull_request workflow, or run it in the workflow_run job on the base branch with permissions {} and no secrets, passing the fork's changes as data (an artifact read as text), never as a checkout the agent works in.
package rules.workflow_agent_on_workflow_run_head

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	is_object(w.workflow_run)
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	not workflow.approval_gated(j)
	some c in object.get(j, "checkouts", [])
	what := _head(c)
	f := sa.finding(rego.metadata.chain(), c, sprintf("%s runs on workflow_run and checks out the triggering pull request's head (%s) for the agent: a fork's code reaches an agent holding the base repository's token and secrets", [workflow.job_label(w, j), what]))
}

_head(c) := "head_sha" if contains(object.get(c, "ref", ""), "workflow_run.head_sha")

else := "head_commit" if contains(object.get(c, "ref", ""), "workflow_run.head_commit")

else := "head_repository" if contains(object.get(c, "repository", ""), "workflow_run.head_repository")
