# METADATA
# title: Stored secrets in the agent's environment
# description: |
#   The agent's container takes credentials from the secret store into its
#   environment (Kubernetes secretKeyRef): passwords, session keys or API keys
#   of the platform around the agent, not the agent's own model credential.
#   Keeping them in a Secret protects them at rest, not from the process that
#   reads them: whatever the agent runs can print its environment, and a
#   prompt injection only has to ask for it and send it away. One finding per
#   container lists the variables. The agent's model credential is not
#   reported here, nor a whole Secret loaded with envFrom (its keys are not
#   in the file).
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/security/secrets-good-practices/
#     description: Kubernetes — good practices for Secrets (limit which containers can read them)
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet
# custom:
#   id: agent-store-secrets-in-env
#   property: credentials
#   severity: medium
#   remediation: Give the agent's container only its model credential. Keep the platform's own secrets (dashboard passwords, session and API keys) in a sidecar or a separate service the agent reaches through an authenticated API, or mount them as files readable only by the process that needs them, under a different user than the agent's.
package rules.agent_store_secrets_in_env

import data.lib.sa
import data.lib.workload as wl

_stored(w) := [e |
	some e in object.get(w, "env", [])
	object.get(e, "from_secret", false) == true
	object.get(e, "sensitive_name", false) == true
	not startswith(e.name, "envFrom:")
	not sa.model_key(e.name)
]

deny contains f if {
	some w in wl.judged_workloads
	env := _stored(w)
	count(env) > 0
	names := concat(", ", sort([e.name | some e in env]))
	f := sa.finding(rego.metadata.chain(), env[0], sprintf("%s takes %d stored secret(s) into the agent's environment (%s): whatever the agent runs can read them, and a prompt injection can send them away", [wl.label(w), count(env), names]))
}
