# METADATA
# title: Default branch takes changes without a person's review
# description: |
#   The repository runs an agent, and its default branch lets a change land
#   without a reviewed pull request (no pull request rule, no required
#   approval, GitHub Actions as a bypass actor, or one approval a workflow's
#   token may give). No agent job in the scan can write contents today, but
#   any credential that can push — a person's token the agent uses locally, a
#   later workflow — then needs no review. Where an agent job can write,
#   github-agent-can-merge-own-change reports it instead.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets#require-a-pull-request-before-merging
#     description: GitHub — require a pull request before merging
# custom:
#   id: github-review-not-required
#   property: review
#   severity: high
#   remediation: Add a ruleset on the default branch that requires a pull request with at least one approving review, dismisses stale approvals, and has no bypass actor an agent's credential belongs to.
package rules.github_review_not_required

import data.lib.github
import data.lib.sa

deny contains f if {
	github.any_agent
	count(github.agent_writers) == 0
	count(github.app_mergers) == 0
	count(github.review_gaps) > 0
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s runs an agent, and its %s lets a change land without a person's review: %s", [github.label, github.branch, concat("; ", sort(github.review_gaps))]))
}
