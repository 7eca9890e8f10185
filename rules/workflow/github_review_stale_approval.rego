# METADATA
# title: An approval survives later pushes
# description: |
#   The default branch needs one approving review, but a push after the
#   approval neither dismisses it nor needs the last push approved. An agent
#   (or anyone with push access to the pull request's branch) can push new
#   commits after a person approved, and merge what nobody reviewed.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets#require-a-pull-request-before-merging
#     description: GitHub — dismiss stale approvals, require approval of the most recent push
# custom:
#   id: github-review-stale-approval
#   property: review
#   severity: medium
#   remediation: In the default branch's ruleset, turn on "Dismiss stale pull request approvals when new commits are pushed" or "Require approval of the most recent reviewable push".
package rules.github_review_stale_approval

import data.lib.github
import data.lib.sa

deny contains f if {
	github.any_agent
	r := github.review
	r.requires_pull_request
	r.approvals >= 1
	not r.dismiss_stale
	not r.last_push_approval
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("the %s of %s keeps an approval after new commits: the agent can push after a person approved and merge what nobody reviewed", [github.branch, github.label]))
}
