# METADATA
# title: Credentials embedded in a git remote URL
# description: |
#   A remote such as https://user:token@github.com/org/repo.git keeps the token
#   in .git/config in plain text, where the agent, every tool that prints the
#   remote and every copy of the repository directory can read it. Tokens put
#   there are usually long-lived PATs with the owner's full scope.
# related_resources:
#   - ref: https://git-scm.com/docs/gitcredentials
#     description: gitcredentials — avoid credentials in URLs, use a helper
#   - ref: https://cwe.mitre.org/data/definitions/798.html
#     description: CWE-798 Use of hard-coded credentials
#   - ref: https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens
#     description: GitHub — keep personal access tokens secure
# custom:
#   id: git-remote-url-credentials
#   property: credentials
#   severity: high
#   remediation: Revoke the token, set the remote to a URL without credentials (git remote set-url origin https://github.com/org/repo.git) and authenticate through a credential helper or proxy that hands out a short-lived, scoped token.
package rules.git_remote_url_credentials

import data.lib.sa

# safe(u) hides whatever sits between the scheme and "@", in case the
# collector's redaction missed part of it, and drops the query.
safe(u) := regex.replace(regex.replace(u, `[?#].*$`, ""), `^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@`, "$1***@")

deny contains f if {
	some g in input.git_configs
	some u in g.credential_urls
	f := sa.finding(
		rego.metadata.chain(), u,
		sprintf("git config has a remote URL with embedded credentials (%s)", [safe(object.get(u, "value", ""))]),
	)
}
