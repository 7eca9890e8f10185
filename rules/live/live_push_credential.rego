# METADATA
# title: Live sandbox holds a credential that can push code
# description: |
#   The agent can read a credential that pushes to a forge: the checkout
#   token that actions/checkout persisted in git config, a GitHub token, a
#   git-credentials entry, an SSH key or agent. With it the agent's work can
#   leave without a reviewed pull request — to the default branch if the
#   token allows, or to another repository.
# related_resources:
#   - ref: https://github.com/actions/checkout#usage
#     description: actions/checkout — persist-credentials
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets requiring pull requests and reviews
# custom:
#   id: live-push-credential
#   property: review
#   severity: high
#   remediation: Set persist-credentials false, give the agent no push token (let a separate reviewed step push), and protect the default branch with a ruleset that requires a reviewed pull request.
package rules.live_push_credential

import data.lib.live
import data.lib.sa

deny contains f if {
	some c in input.live.credentials
	c.can_push
	live.usable(c)
	f := sa.finding(rego.metadata.chain(), c, sprintf("%s holds a credential that can push code: %s", [live.where(c), c.kind]))
}
