# METADATA
# title: Agent runs on pull_request_target
# description: |
#   The workflow is triggered by pull_request_target and runs an agent. That
#   trigger runs in the base repository's context: the job gets a token that can
#   write and every secret the workflow names, even for a pull request from a
#   fork. The agent then reads the pull request's title, body, diff or files —
#   content the attacker wrote — while holding those credentials, so a prompt
#   injection in the pull request can push code, change settings or send the
#   secrets away. A workflow whose every agent job admits only this
#   repository's pull requests (its if: tests that the head repository is
#   this one, the Security Lab's advice), or deploys to an environment whose
#   required reviewers approve each run (read with scan --github), is not
#   reported.
# related_resources:
#   - ref: https://securitylab.github.com/resources/github-actions-preventing-pwn-requests/
#     description: GitHub Security Lab — Preventing pwn requests
#   - ref: https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-deployments/managing-environments-for-deployment#required-reviewers
#     description: GitHub — environments' required reviewers
#   - ref: https://docs.github.com/en/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows#pull_request_target
#     description: GitHub — pull_request_target runs with the base repository's token and secrets
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — security and prompt injection risks
# custom:
#   id: workflow-agent-on-pull-request-target
#   property: review
#   severity: critical
#   remediation: Run the agent on pull_request (no secrets, read-only token for forks) or on a comment trigger limited to users with write access; if pull_request_target is unavoidable, give the job permissions {} / read-only, no secrets, and never let the agent see fork content.
package rules.workflow_agent_on_pull_request_target

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	is_object(w.pull_request_target)
	workflow.runs_agent(w)
	not _forks_kept_out(w)
	f := sa.finding(rego.metadata.chain(), w.pull_request_target, sprintf("%s runs an agent on pull_request_target: content from any fork's pull request reaches an agent holding the base repository's token and secrets", [workflow.label(w)]))
}

# Every job that runs an agent admits only this repository's pull requests
# (its if: tests that the head repository is this one), or waits for a
# person's approval of each run (an environment with required reviewers,
# read from GitHub): a fork's pull request never reaches the agent
# unseen.
_forks_kept_out(w) if {
	agent_jobs := [j | some j in workflow.jobs(w); workflow.agent_job(w, j)]
	count(agent_jobs) > 0
	every j in agent_jobs {
		_kept_out(j)
	}
}

_kept_out(j) if object.get(j, "same_repo_only", false) == true

_kept_out(j) if workflow.approval_gated(j)
