# METADATA
# title: The agent can merge its own change
# description: |
#   A job that runs an agent has a token that can write contents (its own
#   permissions, or the repository's write default), or an agent's GitHub App
#   installed on every repository of the organisation can (Claude, Copilot
#   coding agent outside its copilot/ branches, Codex, Cursor, Devin…), and
#   the repository's
#   default branch lets that token's change land with no person's review: no
#   rule requires a pull request, a pull request needs no approval, GitHub
#   Actions (or the agent's app) is a bypass actor, or the one required approval may come from a
#   workflow's own token because Actions may approve pull requests. An app's
#   installation must let it take the way: contents write to push, and pull
#   requests write too where the change goes through a pull request; an app
#   that only comments or reviews (contents read) is no writer. Whatever
#   the agent is talked into writing reaches the default branch unreviewed.
#   Read from GitHub's API (scan --github); when the token cannot read the
#   branch's rules the rule stays silent and Reviewed output is unknown.
# related_resources:
#   - ref: https://docs.github.com/en/rest/repos/rules#get-rules-for-a-branch
#     description: GitHub — the rules that apply to a branch
#   - ref: https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository#preventing-github-actions-from-creating-or-approving-pull-requests
#     description: GitHub — stopping Actions from creating or approving pull requests
# custom:
#   id: github-agent-can-merge-own-change
#   property: review
#   severity: critical
#   remediation: Require a pull request with at least one approving review on the default branch in a ruleset that GitHub Actions cannot bypass, turn off "Allow GitHub Actions to create and approve pull requests", and give the agent's job contents read unless it must push a branch.
package rules.github_agent_can_merge_own_change

import data.lib.github
import data.lib.sa
import data.lib.workflow

deny contains f if {
	some x in github.agent_writers
	count(github.review_gaps) > 0
	f := sa.finding(rego.metadata.chain(), workflow.perm_loc(x.workflow, x.job), sprintf("%s runs an agent whose token can write contents, and the %s of %s lets its change land unreviewed: %s", [workflow.job_label(x.workflow, x.job), github.branch, github.label, concat("; ", sort(github.review_gaps))]))
}

# An agent's GitHub App installed on every repository of the owner with
# contents: write is an agent identity that can write, as a job's token is.
deny contains f if {
	some a in github.app_mergers
	gaps := github.app_gaps(a)
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("the %s app %q (%s) is installed on every repository of %s with %s, and the %s of %s lets its change land unreviewed: %s", [a.agent, a.slug, _app_id(a), github.repo.owner, _app_writes(a), github.branch, github.label, concat("; ", sort(gaps))]))
}

_app_id(a) := sprintf("app %d", [a.app_id])

_app_writes(a) := "contents: write and pull_requests: write" if object.get(a.permissions, "pull_requests", "") == "write"

else := "contents: write"
