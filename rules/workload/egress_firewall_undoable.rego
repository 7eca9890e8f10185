# METADATA
# title: The agent can undo the firewall script
# description: |
#   The workload restricts egress with a firewall script that runs inside the
#   container, and the user the agent runs as can rewrite the packet filter
#   afterwards: the container is privileged, the agent runs as root with the
#   NET_ADMIN capability the script needed, or its user can run sudo without a
#   password for every command, for a command that leads to root, or for
#   iptables, nft, ipset or ip directly. One iptables -P OUTPUT ACCEPT and the
#   allowlist is gone, so the egress restriction is a convenience, not a
#   boundary. The reference pattern — a non-root user whose only sudo is the
#   root-owned firewall script — is not reported, unless the script reads
#   its hosts or settings from a file the agent can write (/tmp, the
#   workspace, a home directory): the agent then adds its own and reruns the
#   script through that grant.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/devcontainer
#     description: Claude Code — development containers (non-root user, sudo only for the firewall script)
#   - ref: https://man7.org/linux/man-pages/man7/capabilities.7.html
#     description: capabilities(7) — CAP_NET_ADMIN
#   - ref: https://www.sudo.ws/docs/man/sudoers.man/
#     description: sudoers(5) — what a NOPASSWD grant allows
# custom:
#   id: egress-firewall-undoable
#   property: network
#   severity: high
#   remediation: Run the agent as a non-root user whose only sudo is the root-owned firewall script (no NOPASSWD ALL, no sudo for iptables, nft, ipset or ip, no common-utils sudo), drop privileged, or enforce egress outside the container (an internal network with an egress proxy, a NetworkPolicy) where the agent cannot reach it.
package rules.egress_firewall_undoable

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.scripted
	eg := w.egress
	not privilege.script_powerless(w)
	path := object.get(eg, ["script", "path"], "")
	path != ""
	u := privilege.undo(w)
	f := sa.finding(
		rego.metadata.chain(), u.loc,
		sprintf("%s's firewall script %s can be undone by the agent: %s", [wl.label(w), path, u.how]),
	)
}
