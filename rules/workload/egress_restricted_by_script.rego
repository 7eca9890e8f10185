# METADATA
# title: Egress restricted only by a firewall script, unverified
# description: |
#   The workload's outbound traffic is limited by a firewall script its
#   lifecycle command or entrypoint runs (iptables, nftables, ipset or ufw with a
#   default-deny OUTPUT and an allowlist, the pattern of Anthropic's reference
#   Claude Code devcontainer). The script was read, not run: nothing shows that it
#   runs before the agent starts, that it does not fail half-way (leaving the
#   default ACCEPT), or that its rules hold once the agent is inside; an
#   allowlist of IP addresses resolved once also drifts from the names it stood
#   for. The finding lists what the script lets through and the weaker holes
#   (DNS or ICMP to any host, IPv6 left unfiltered, early successful exits).
#   Holes that let ordinary traffic reach any host are reported at medium by
#   egress-script-any-host; a script the agent can undo by egress-firewall-undoable.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/devcontainer
#     description: Claude Code — development containers and the reference firewall (init-firewall.sh)
#   - ref: https://github.com/anthropics/claude-code/blob/main/.devcontainer/init-firewall.sh
#     description: The reference init-firewall.sh
#   - ref: https://man7.org/linux/man-pages/man8/iptables.8.html
#     description: iptables(8) — chains, policies and rule order
# custom:
#   id: egress-restricted-by-script
#   property: network
#   severity: low
#   remediation: Prefer a control the runtime enforces and the agent cannot touch - an internal Docker network with an egress proxy that holds the allowlist, a Kubernetes egress NetworkPolicy, or network none. Keep the script as a second layer, make it fail closed (set -e before the default DROP, no early exit 0), filter IPv6 as well, and check from inside the sandbox (sandbox-audit --live --probe) that blocked hosts stay blocked.
package rules.egress_restricted_by_script

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

# Weaker holes, named in this finding rather than reported on their own.
minor := {"dns", "icmp", "ipv6", "fail-open", "conditional"}

deny contains f if {
	some w in wl.scripted
	eg := w.egress
	not privilege.script_powerless(w)
	path := object.get(eg, ["script", "path"], "")
	path != ""
	phase := object.get(eg, ["script", "phase"], "")
	f := sa.finding(
		rego.metadata.chain(), eg,
		sprintf("%s restricts egress only with firewall script %s, run by its %s command: read, not verified (nothing shows it runs before the agent, completes, or holds); it allows %s%s", [wl.label(w), path, phase, _allowed(eg), _notes(eg)]),
	)
}

_allowed(eg) := concat(", ", eg.allow) if count(object.get(eg, "allow", [])) > 0

else := "no named destination"

_notes(eg) := sprintf("; also %s", [concat("; ", sort(texts))]) if {
	texts := {h.text | some h in object.get(eg, ["script", "rules", "holes"], []); h.kind in minor}
	count(texts) > 0
} else := ""
