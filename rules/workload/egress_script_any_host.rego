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
#   away. So does a devcontainer that runs the script only when the
#   container is created (onCreateCommand, updateContentCommand,
#   postCreateCommand): the rules live in the container's network namespace,
#   which a stopped and started container gets anew, so after a restart
#   (a reboot, a resumed Codespace, devcontainer up on an existing
#   container) no rule is left and every host is reachable; postStartCommand
#   runs on every start. DNS (port 53) and ICMP to any host are named, at low
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

# A devcontainer's firewall script run only when the container is created.
_once := {"onCreate", "updateContent", "postCreate"}

deny contains f if {
	some w in wl.scripted
	eg := w.egress
	not privilege.script_powerless(w)
	object.get(eg, "allow_all", false) != true
	phase := object.get(eg, ["script", "phase"], "")
	phase in _once
	ref := object.get(eg, ["script", "runs"], "")
	not _on_start(w, ref)
	path := object.get(eg, ["script", "path"], ref)
	f := sa.finding(rego.metadata.chain(), eg, sprintf("%s's firewall script %s runs only in its %s command: its rules are gone once the container restarts (a new network namespace), and then every host is reachable; run it from postStartCommand", [wl.label(w), path, phase]))
}

# _on_start(w, ref): a command run on every start (of the workload, or of
# the devcontainer that runs in it) runs the script too.
_on_start(w, ref) if {
	some c in object.get(w, "commands", [])
	_starts(c, ref)
}

_on_start(w, ref) if {
	dc := object.get(w, "devcontainer", "")
	dc != ""
	some d in input.workloads
	d.source == "devcontainer"
	d.file == dc
	some c in object.get(d, "commands", [])
	_starts(c, ref)
}

_starts(c, ref) if {
	c.phase in {"postStart", "postAttach", "entrypoint"}
	ref in object.get(c, "scripts", [])
}
