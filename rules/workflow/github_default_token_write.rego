# METADATA
# title: Workflows get a write token by default
# description: |
#   The repository's default GITHUB_TOKEN permissions are read and write:
#   every job without a permissions block — an agent's among them — can push,
#   open and merge pull requests, and write issues and packages.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#modifying-the-permissions-for-the-github_token
#     description: GitHub — the GITHUB_TOKEN's default permissions
# custom:
#   id: github-default-token-write
#   property: credentials
#   severity: medium
#   remediation: Set the default workflow permissions to "Read repository contents and packages permissions" (Settings, Actions, General) and grant write per job where needed.
package rules.github_default_token_write

import data.lib.github
import data.lib.sa

deny contains f if {
	github.actions.default_permissions == "write"
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s gives every workflow job without a permissions block a read and write token", [github.label]))
}
