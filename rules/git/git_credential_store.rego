# METADATA
# title: git credential helper "store" keeps passwords in plain text
# description: |
#   credential.helper store writes every username and token git uses to
#   ~/.git-credentials (or the --file given), unencrypted, and keeps them there
#   indefinitely. In a sandbox that file is readable by the agent and survives
#   in any image, volume or home directory that is reused.
# related_resources:
#   - ref: https://git-scm.com/docs/git-credential-store
#     description: git-credential-store — stores credentials unencrypted on disk
#   - ref: https://git-scm.com/docs/gitcredentials
#     description: gitcredentials — credential helpers
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet
# custom:
#   id: git-credential-store
#   property: credentials
#   severity: high
#   remediation: Remove credential.helper store and delete the stored file. Use a helper that hands out a short-lived token per request (gh auth git-credential with a scoped token, a GitHub App token helper, git-credential-manager), or a git proxy that adds credentials outside the sandbox.
package rules.git_credential_store

import data.lib.sa

is_store(v) if v == "store"

is_store(v) if startswith(v, "store ")

# A helper given by path or as a shell command: /usr/lib/git-core/git-credential-store, !git credential-store.
is_store(v) if regex.match(`(^|[/!\s])git[- ]credential-store(\s|$)`, v)

deny contains f if {
	some g in input.git_configs
	some h in g.credential_helpers
	is_store(trim_space(object.get(h, "value", "")))
	f := sa.finding(
		rego.metadata.chain(), h,
		"git config sets credential.helper store: git saves every credential it uses in plain text on disk",
	)
}
