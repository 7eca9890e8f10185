# METADATA
# title: Firewall script lets traffic to any host through
# description: |
#   The firewall script that restricts the workload's egress accepts some
#   outbound traffic without naming a destination: an OUTPUT ACCEPT on a port
#   (tcp/22 in the reference devcontainer, 80 or 443, a port range) with no
#   -d, ipset or daddr, or with the destination negated. On that port the agent
#   reaches every host on the internet: it can push the repository over SSH to
#   any server, tunnel through it, or fetch and run code, and the allowlist
#   does not apply. The same holds for an allowlist of the published address
#   ranges of a network anyone can serve from (Cloudflare's, a public
#   cloud's): an attacker's site or function behind it is one free account
#   away. DNS (port 53) and ICMP to any host are named, at low
#   severity, by egress-restricted-by-script; a rule that accepts all traffic
#   makes egress-unrestricted fire.
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man8/iptables-extensions.8.html
#     description: iptables-extensions(8) — matching by destination, port and ipset
#   - ref: https://github.com/anthropics/claude-code/blob/main/.devcontainer/init-firewall.sh
#     description: The reference init-firewall.sh (allows outbound SSH to any host)
#   - ref: https://attack.mitre.org/techniques/T1048/
#     description: MITRE ATT&CK T1048 — exfiltration over an alternative protocol
# custom:
#   id: egress-script-any-host
#   property: network
#   severity: medium
#   remediation: Give each ACCEPT a destination - the git host's published ranges for SSH (or use HTTPS to an allowlisted host instead), the registry's addresses for 443 - or send the traffic through an egress proxy that checks host names; drop the rule if nothing needs it.
package rules.egress_script_any_host

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.scripted
	eg := w.egress
	not privilege.script_powerless(w)
	object.get(eg, "allow_all", false) != true
	path := object.get(eg, ["script", "path"], "")
	some h in object.get(eg, ["script", "rules", "holes"], [])
	h.kind in {"any-host", "shared"}
	f := sa.finding(rego.metadata.chain(), h, _message(w, path, h))
}

_message(w, path, h) := sprintf("%s's firewall script %s accepts %s: on it the agent reaches every host, past the allowlist", [wl.label(w), path, h.text]) if {
	h.kind == "any-host"
} else := sprintf("%s's firewall script %s %s", [wl.label(w), path, h.text])
