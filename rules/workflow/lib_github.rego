# Package lib.github: the repository's settings as GitHub's API gave them
# (input.repository; absent without scan --github).
package lib.github

import data.lib.workflow

repo := input.repository

review := repo.review if is_object(repo.review)

actions := repo.actions if is_object(repo.actions)

label := sprintf("repository %s/%s", [repo.owner, repo.name])

branch := sprintf("default branch %q", [repo.default_branch])

# GitHub Actions' app id: a bypass actor "Integration 15368" lets every
# workflow token bypass the ruleset.
actions_bypass if {
	some b in review.bypass
	startswith(b, "Integration 15368")
}

# can_approve: Actions may create and approve pull requests.
can_approve if actions.can_approve_pull_requests == true

# agent_writers: the jobs that run an agent with a token that can write
# contents, directly or through the repository's write default.
agent_writers contains {"workflow": w, "job": j} if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	_writes(j)
}

_writes(j) if "contents" in object.get(j, "effective_write", [])

_writes(j) if {
	"default" in object.get(j, "effective_write", [])
	actions.default_permissions == "write"
}

# review_gaps: why a change of the agent's can reach the default branch
# without a person's review.
review_gaps contains "it requires no pull request" if {
	is_object(review)
	not review.requires_pull_request
}

review_gaps contains "a pull request needs no approving review" if {
	review.requires_pull_request
	review.approvals == 0
}

review_gaps contains "GitHub Actions may bypass its rules" if actions_bypass

review_gaps contains "its one required approval may come from a workflow's token (Actions may approve pull requests)" if {
	review.approvals == 1
	can_approve
	not review.code_owner_review
}

# agent_apps: the GitHub Apps installed on the repository's owner that run
# an agent and reach this repository (installed on all its repositories;
# on selected ones, whether this is one is unknown and an errors[] entry),
# not suspended.
agent_apps contains a if {
	some a in object.get(repo, "agent_apps", [])
	a.repositories == "all"
	not a.suspended
}

# app_writers: the agent apps that can write contents, but for those GitHub
# itself keeps to their own branches (the Copilot coding agent's copilot/).
app_writers contains a if {
	some a in agent_apps
	object.get(a.permissions, "contents", "") == "write"
	not a.own_branches_only
}

# app_gaps(a): why a change of app a can reach the default branch
# without a person's review, as far as its installation's permissions let
# it take each way (it can write contents: app_writers): the branch's gaps
# it can use, and its own place among the bypass actors (a ruleset's
# "Integration APP_ID", classic protection's "App SLUG"). A push straight
# to the branch (no pull request rule; the app, or GitHub Actions whose
# workflows its pushes run, a bypass actor) needs contents: write alone; a
# pull request that needs no approval, or whose one approval a workflow's
# token may give, must be opened and merged: pull_requests: write too. An
# app that comments and reviews only (contents: read) is no writer at all.
app_gaps(a) := {g | some g in review_gaps; _app_takes(a, g)} | {g | _app_bypass(a); g := "the app may bypass its rules"}

# _through_pull_request: the gaps a change takes through a pull request.
_through_pull_request := {
	"a pull request needs no approving review",
	"its one required approval may come from a workflow's token (Actions may approve pull requests)",
}

_app_takes(a, g) if not g in _through_pull_request

_app_takes(a, g) if {
	g in _through_pull_request
	object.get(a.permissions, "pull_requests", "") == "write"
}

# app_mergers: the agent apps whose change can land unreviewed.
app_mergers contains a if {
	some a in app_writers
	count(app_gaps(a)) > 0
}

_app_bypass(a) if {
	some b in review.bypass
	b == sprintf("Integration %d", [a.app_id])
}

_app_bypass(a) if {
	some b in review.bypass
	startswith(b, sprintf("Integration %d ", [a.app_id]))
}

_app_bypass(a) if {
	some b in review.bypass
	b == sprintf("App %s", [a.slug])
}

# any_agent: the scan saw an agent (settings or a workflow that runs one).
any_agent if count(object.get(input, "agents", [])) > 0

any_agent if count(agent_apps) > 0

any_agent if {
	some w in workflow.workflows
	workflow.runs_agent(w)
}

# reviewed_default: GitHub's settings show that every change to the default
# branch needs a person's approving review no bypass actor seen can skip.
# Whether Actions may approve must be known (and off): an approval a
# workflow's token gives is no person's.
reviewed_default if {
	review.bypass_known
	count(review_gaps) == 0
	count(review.bypass) == 0
	actions.can_approve_pull_requests == false
}
