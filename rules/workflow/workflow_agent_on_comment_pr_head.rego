# METADATA
# title: Agent runs on a pull request's code in an issue_comment job
# description: |
#   The workflow runs on issue_comment — which GitHub runs in the base
#   repository's context, with its token and every secret, whoever opened
#   the pull request the comment is on — and the job that runs the agent
#   checks out that pull request's code: a checkout of refs/pull/N/head or
#   refs/pull/N/merge (N from github.event.issue.number or a step's output),
#   of a head ref, SHA or repository an earlier step or job looked up, or a
#   run step's gh pr checkout or git fetch of pull/N/head before the agent
#   starts. The agent then reads, builds and follows files a fork's author
#   wrote (CLAUDE.md, AGENTS.md, scripts, test hooks) while holding a
#   privileged token and the workflow's secrets: the pwn request the
#   Security Lab describes, with the agent as the code that runs.
#   A check of the commenter (author_association OWNER/MEMBER/COLLABORATOR
#   in the job's if:, or the check claude-code-action and openai/codex-action
#   make that the actor can write, when allowed_non_write_users or
#   allow-users does not widen it) does not make it safe: a
#   maintainer asking the agent to look at a fork's pull request is the
#   normal use, and it is the fork's code the agent then runs. With such a
#   check an outsider needs a maintainer's comment, so the finding is high;
#   without one it is critical.
#   pull_request_review and pull_request_review_comment are not reported:
#   on a fork's pull request GitHub runs them as it runs pull_request, with
#   a read-only token and no secrets. A job whose if: admits only this
#   repository's pull requests, or that deploys to an environment whose
#   required reviewers approve each run (read with scan --github), is not
#   reported.
# related_resources:
#   - ref: https://securitylab.github.com/resources/github-actions-preventing-pwn-requests/
#     description: GitHub Security Lab — Preventing pwn requests (issue_comment with a checkout of the pull request)
#   - ref: https://docs.github.com/en/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows#issue_comment
#     description: GitHub — issue_comment runs on the default branch with the base repository's token and secrets
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — security and prompt injection risks
# custom:
#   id: workflow-agent-on-comment-pr-head
#   property: review
#   severity: critical
#   remediation: Do not check out the pull request's head in a comment-triggered agent job. Read the change as data (gh pr diff) from the base branch's checkout, or run the agent on pull_request (read-only token, no secrets for forks); if the job must work in the pull request's tree, give it permissions {} / read-only and no secrets, check that the head repository is this one before the checkout, or deploy to an environment whose required reviewers approve each run.
package rules.workflow_agent_on_comment_pr_head

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some t in object.get(w, "triggers", [])
	t.value == "issue_comment"
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	not workflow.approval_gated(j)
	not object.get(j, "same_repo_only", false) == true
	places := sort([[c.line, what, c] | some [c, what] in _pr_code(j)])
	count(places) > 0
	loc := places[0][2]
	what := concat("; ", [p[1] | some p in places])
	msg := sprintf("%s runs on issue_comment and checks out the pull request's code (%s) for the agent: a fork's code and instructions reach an agent holding the base repository's token and secrets once %s", [workflow.job_label(w, j), what, _who(j)])
	f := object.union(sa.finding(rego.metadata.chain(), loc, msg), _severity(j))
}

# A check of the commenter makes an outsider need a maintainer's comment.
_severity(j) := {"severity": "high"} if _commenter_checked(j)

else := {}

_who(j) := "a maintainer comments on a fork's pull request (the commenter is checked, the code is not)" if _commenter_checked(j)

else := "anyone comments on it"

# _pr_code(j) pairs each place the job fetches the pull request's code
# with what it fetches; a job is reported once, at the first of them.
_pr_code(j) := {[c, what] |
	some c in object.get(j, "checkouts", [])
	what := _checkout_of_pr(c)
} | {[s, workflow.short(s.value)] |
	some s in object.get(j, "pr_checkouts", [])
	s.line <= _last_agent_line(j)
}

_checkout_of_pr(c) := workflow.short(ref) if {
	ref := object.get(c, "ref", "")
	_pr_ref(ref)
} else := sprintf("repository %s", [workflow.short(repo)]) if {
	repo := object.get(c, "repository", "")
	regex.match(`(?i)\b(steps|needs)\.[A-Za-z0-9_-]+\.outputs\b[^}]*head[_.-]?repo|headRepository`, repo)
}

# A pull request's ref: refs/pull/N/head or /merge, whatever gives N; or a
# head ref or SHA a step or job looked up (steps.pr.outputs.head_sha,
# fromJSON(steps.pr.outputs.result).head.ref). github.event.pull_request
# and github.head_ref are empty on issue_comment: the default branch.
_pr_ref(ref) if regex.match(`(^|[^A-Za-z0-9_])pull/[^/]+/(head|merge)\b`, ref)

_pr_ref(ref) if regex.match(`(?i)\b(steps|needs)\.[A-Za-z0-9_-]+\.outputs\b[^}]*(head|pr[_-]?(ref|sha|branch))`, ref)

_last_agent_line(j) := max([s.line | some s in object.get(j, "agent_steps", [])]) if count(object.get(j, "agent_steps", [])) > 0

else := 0

# Only a commenter who may write starts the agent: the job's if: checks
# the commenter on every branch that reads a comment, or every agent step
# is an action that checks the actor can write.
_commenter_checked(j) if object.get(j, "author_checked", false) == true

_commenter_checked(j) if {
	steps := object.get(j, "agent_steps", [])
	count(steps) > 0
	every s in steps {
		_action_checks_writer(s)
	}
}

# claude-code-action and openai/codex-action refuse an actor without write
# access unless allowed_non_write_users or allow-users widens it.
_action_checks_writer(s) if {
	startswith(object.get(s, "uses", ""), "anthropics/claude-code-action@")
	not _set(object.get(s, "allowed_non_write_users", {}))
}

_action_checks_writer(s) if {
	startswith(object.get(s, "uses", ""), "openai/codex-action@")
	not _set(object.get(object.get(s, "inputs", {}), "allow-users", {}))
}

_set(v) if trim_space(object.get(v, "value", "")) != ""
