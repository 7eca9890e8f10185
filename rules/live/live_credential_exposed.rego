# METADATA
# title: Credential readable inside the live sandbox
# description: |
#   A credential sits where the agent can read it: an environment variable,
#   a credentials file in a home directory (~/.aws, ~/.docker, ~/.netrc,
#   ~/.kube, gh, gcloud…), a git config, a service-account token. Whatever
#   the agent reads, a prompt injection can make it send out; long-lived
#   tokens stay useful long after the task.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#using-secrets
#     description: GitHub — using secrets safely
#   - ref: https://kubernetes.io/docs/concepts/security/service-accounts/#bound-service-account-tokens
#     description: Kubernetes — bound, short-lived service-account tokens
# custom:
#   id: live-credential-exposed
#   property: credentials
#   severity: high
#   remediation: Keep credentials out of the sandbox — a proxy that adds them, OIDC federation, a short-lived scoped token fetched for one step — and disable service-account token automount when the agent needs no API access.
package rules.live_credential_exposed

import data.lib.live
import data.lib.sa

deny contains f if {
	some c in input.live.credentials
	c.source != "ssh-agent"
	live.usable(c)
	f := sa.finding(
		rego.metadata.chain(), c,
		sprintf("%s holds a credential: %s, lifetime %s", [live.where(c), c.kind, c.lifetime]),
	)
}
