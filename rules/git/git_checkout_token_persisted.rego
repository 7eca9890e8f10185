# METADATA
# title: Checkout token persisted in git config
# description: |
#   actions/checkout persists the job's token by default (persist-credentials
#   true): before v6 as an http.<url>.extraheader "AUTHORIZATION: basic …" in
#   .git/config, from v6 in a credentials file the config includes. Every later
#   step, including an agent running in the workspace, can read that token and
#   use it with the job's permissions, for example to push to branches or open
#   and merge pull requests outside review.
# related_resources:
#   - ref: https://github.com/actions/checkout#usage
#     description: actions/checkout — persist-credentials
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
#     description: GitHub — security hardening for GitHub Actions
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
#     description: GitHub — GITHUB_TOKEN permissions
# custom:
#   id: git-checkout-token-persisted
#   property: credentials
#   severity: high
#   remediation: Set persist-credentials false on actions/checkout in jobs that run an agent, restrict the job's permissions to contents read, and let pushes go through a separate step or the agent's own scoped credential path.
package rules.git_checkout_token_persisted

import data.lib.sa

deny contains f if {
	some g in input.git_configs
	some h in g.extra_headers
	f := sa.finding(
		rego.metadata.chain(), h,
		sprintf("git config carries an authorization header in %s: the checkout token stays readable by every later step", [object.get(h, "value", "http.extraheader")]),
	)
}
