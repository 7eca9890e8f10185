# METADATA
# title: Host secret forwarded into the sandbox
# description: |
#   An environment variable copies a credential from the developer's or the
#   runner's environment into the sandbox (devcontainer ${localEnv:GITHUB_TOKEN},
#   compose ${GITHUB_TOKEN}). The agent reads it like any other variable, and it
#   is the host's token, usually a long-lived one with the user's full scope,
#   not a credential minted for this task. Fires when the variable's name or
#   the forwarded host variable's name looks like a credential, and when a
#   command that runs on the host (initializeCommand) writes a host
#   credential into the workspace the container mounts (gh auth token >
#   .devcontainer/.env, cp ~/.aws/credentials .devcontainer/). The password
#   of a server in the sandbox that guards the way in to it (ttyd's web
#   terminal, VNC, Jupyter) is not counted: it opens nothing beyond it; nor
#   is the key a web application there signs its own sessions with
#   (JWT_SECRET, SESSION_SECRET, NEXTAUTH_SECRET), nor a reference whose
#   default is guessable (${JWT_SECRET:-change-me}): a setting that works
#   unset, whose default weak-default-password reports.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/#variables-in-devcontainerjson
#     description: Dev Container metadata reference — ${localEnv} copies host variables
#   - ref: https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/
#     description: Compose — variable interpolation from the host shell
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html
#     description: OWASP Secrets Management Cheat Sheet
#   - ref: https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens
#     description: GitHub — scope tokens narrowly and give them an expiry
# custom:
#   id: host-secret-forwarded
#   property: credentials
#   severity: high
#   remediation: Stop forwarding the host's credential. Mint a task-scoped, short-lived token (GitHub App installation token for one repository, fine-grained PAT with an expiry, cloud OIDC) and inject it through a credential proxy the agent cannot read, or mount it as a secret file readable only by the process that needs it.
package rules.host_secret_forwarded

import data.lib.sa
import data.lib.workload as wl

# The name test the collectors use (secrets.SensitiveName), of the variable
# and of the host variable (host_sensitive): FOO=${localEnv:GITHUB_TOKEN}
# forwards a token under a bland name, SESSION_TTL=${SESSION_TTL} a timeout.
sensitive(e) if object.get(e, "sensitive_name", false) == true

sensitive(e) if object.get(e, "host_sensitive", false) == true

# The agent's own model credential is agent-model-key-forwarded's, at its
# own severity: the agent needs it. The password of a server in the
# sandbox that guards the way in (TTYD_PASS of the agent's web terminal)
# opens nothing beyond it, nor does the key an application there signs its
# own sessions with (JWT_SECRET). A reference whose default is guessable
# (${JWT_SECRET:-change-me}) is a setting that works unset: the default is
# weak-default-password's.

deny contains f if {
	some w in wl.judged_workloads
	some e in w.env
	object.get(e, "from_host", "") != ""
	sensitive(e)
	not sa.model_key(object.get(e, "name", ""))
	not sa.inbound_credential(object.get(e, "name", ""))
	not sa.app_own_secret(object.get(e, "name", ""))
	not object.get(e, "weak", false) == true
	f := sa.finding(
		rego.metadata.chain(), e,
		sprintf("%s forwards the host's %s into %s", [wl.label(w), e.from_host, object.get(e, "name", "?")]),
	)
}

# A command run on the host (initializeCommand) writes one of the host's
# credentials into the workspace, which the container mounts.
deny contains f if {
	some w in wl.judged_workloads
	some c in object.get(w, "commands", [])
	object.get(c, "on_host", false) == true
	what := object.get(c, "host_secret", "")
	what != ""
	f := sa.finding(rego.metadata.chain(), c, sprintf("%s's %s command runs on the host and writes its credential (%s) into the workspace the container mounts: the agent reads it there", [wl.label(w), object.get(c, "phase", "lifecycle"), what]))
}
