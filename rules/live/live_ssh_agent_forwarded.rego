# METADATA
# title: SSH agent forwarded into the live sandbox
# description: |
#   SSH_AUTH_SOCK points at a live agent socket: the agent can sign with
#   every key loaded in it — push to any repository, log in to any host those
#   keys open — for as long as the session lasts, without ever reading a key.
# related_resources:
#   - ref: https://man.openbsd.org/ssh#A
#     description: ssh(1) — agent forwarding and its risk
#   - ref: https://docs.github.com/en/authentication/connecting-to-github-with-ssh/using-ssh-agent-forwarding
#     description: GitHub — SSH agent forwarding
# custom:
#   id: live-ssh-agent-forwarded
#   property: credentials
#   severity: high
#   remediation: Do not forward the agent into the sandbox; give it a deploy key or a short-lived token scoped to one repository.
package rules.live_ssh_agent_forwarded

import data.lib.sa

deny contains f if {
	some c in input.live.credentials
	c.source == "ssh-agent"

	# The socket path changes every session: the message names the variable.
	f := sa.finding(rego.metadata.chain(), c, sprintf("an SSH agent is forwarded into the sandbox through %s", [c.name]))
}
