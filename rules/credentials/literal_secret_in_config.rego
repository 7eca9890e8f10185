# METADATA
# title: Literal credential in configuration
# description: |
#   A credential is written into a file the sandbox is built from or can read:
#   an env value in a compose file or devcontainer, an MCP server's env or
#   headers, a URL, a git config, agent settings, a workflow. Everything the
#   agent can read, a prompt injection can exfiltrate; a file in a repository
#   also reaches every clone, fork, log and backup. A long-lived token (classic
#   PAT, cloud access key, API key) stays valid long after the task, and the
#   message says so. Only the kind, lifetime and a short fingerprint are shown,
#   never the value. Credentials found in the live environment are judged by
#   the live rules.
# related_resources:
#   - ref: https://cwe.mitre.org/data/definitions/798.html
#     description: CWE-798 Use of hard-coded credentials
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet
#   - ref: https://docs.github.com/en/code-security/secret-scanning/introduction/about-secret-scanning
#     description: GitHub — secret scanning, and revoking leaked tokens
#   - ref: https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens
#     description: GitHub — fine-grained, expiring personal access tokens
# custom:
#   id: literal-secret-in-config
#   property: credentials
#   severity: high
#   remediation: Revoke and rotate the credential now (it must be treated as leaked), remove it from the file and its git history, and reference it instead (${VAR}, ${input:…}, a secret store). Give the sandbox a short-lived, narrowly scoped credential, ideally held by a proxy the agent cannot read.
package rules.literal_secret_in_config

import data.lib.sa

live := {"live-env", "live-file"}

lifetime_words := {
	"long": "long-lived",
	"short": "short-lived",
	"session": "session-scoped",
}

lifetime(c) := lifetime_words[object.get(c, "lifetime", "")] if {
	lifetime_words[object.get(c, "lifetime", "")]
} else := "unknown lifetime"

kind(c) := c.kind if {
	object.get(c, "kind", "") != ""
} else := "credential"

context(c) := c.context if {
	object.get(c, "context", "") != ""
} else := sprintf("a %s value", [where(c)])

where(c) := c.where if {
	object.get(c, "where", "") != ""
} else := "configuration"

readable(c) := ", readable by the agent" if {
	object.get(c, "readable_by_agent", false) == true
} else := ""

# A generic secret (a password-looking literal, a URL's password) in the
# definition of a workload that is not the agent's is a platform service's
# local-development value, not a credential of the agent's sandbox; a
# recognised token (a GitHub PAT, a cloud key) is reported wherever it sits.
not_judged := {w.id | some w in input.workloads; object.get(w, "judged", true) == false}

platform_dev_value(c) if {
	object.get(c, "workload", "") in not_judged
	object.get(c, "lifetime", "unknown") == "unknown"
}

deny contains f if {
	some c in input.credentials
	not object.get(c, "where", "") in live
	not platform_dev_value(c)
	f := sa.finding(
		rego.metadata.chain(), c,
		sprintf("Literal %s (%s, fingerprint %s) in %s%s", [kind(c), lifetime(c), object.get(c, "fingerprint", "?"), context(c), readable(c)]),
	)
}
