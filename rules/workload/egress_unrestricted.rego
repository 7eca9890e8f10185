# METADATA
# title: Outbound network traffic not restricted
# description: |
#   Nothing in the configuration denies the workload's outbound traffic by
#   default: no egress NetworkPolicy selects the pod, the compose service is on
#   a network with a route out, the devcontainer has the default bridge. An
#   agent that reads a prompt injection can send the repository, its tokens and
#   anything it can reach to any host on the internet, and fetch and run any
#   code. Fires when egress is not declared, when the declared control allows
#   every destination, or when it is declared but not default-deny (a
#   firewall script whose OUTPUT policy stays ACCEPT, one that was not read, or
#   one run as a non-root user without sudo, which cannot apply its rules);
#   quiet for network none.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/services-networking/network-policies/
#     description: Kubernetes — NetworkPolicy, default deny all egress traffic
#   - ref: https://docs.docker.com/reference/compose-file/networks/#internal
#     description: Compose — internal networks have no external connectivity
#   - ref: https://docs.docker.com/engine/network/drivers/none/
#     description: Docker — the none network driver isolates the container's network stack
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Kubernetes_Security_Cheat_Sheet.html
#     description: OWASP Kubernetes Security Cheat Sheet — network policies
# custom:
#   id: egress-unrestricted
#   property: network
#   severity: high
#   remediation: Deny outbound traffic by default and name the exceptions (package registry, git host, model API), e.g. through an egress proxy with an allowlist. Compose - attach the service only to an internal network, with the proxy as its way out, or network_mode none. Kubernetes - a default-deny egress NetworkPolicy plus one that allows the proxy and DNS. Devcontainer - runArgs --network=none or an internal network.
package rules.egress_unrestricted

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

# fix says, per format, what would restrict egress.
fix := {
	"compose": "attach it only to an internal network (networks: <name>: internal: true) with an egress proxy, or set network_mode: none",
	"kubernetes": "add an egress NetworkPolicy that selects the pod and denies by default",
	"devcontainer": "add --network=none to runArgs, or attach it to an internal network with an egress proxy",
}

how(w) := fix[object.get(w, "source", "")] if {
	fix[object.get(w, "source", "")]
} else := "deny outbound traffic by default and allow only named destinations"

isolated(w) if wl.str(w, "network_mode") == "none"

# egress(w) is the declared egress control, null when there is none.
egress(w) := object.get(w, "egress", null)

# The ways to be unrestricted, each with its own wording.
problem(w) := "declares no egress restriction" if {
	not is_object(egress(w))
} else := sprintf("runs firewall script %s, which was not read (%s): nothing shows that egress is denied by default", [egress(w).script.runs, egress(w).script.not_read]) if {
	object.get(egress(w), ["script", "not_read"], "") != ""
} else := sprintf("runs firewall script %s as %s without sudo: a non-root user cannot program the packet filter, so its rules never apply", [egress(w).script.path, privilege.runtime_user(w)]) if {
	privilege.script_powerless(w)
} else := sprintf("has an egress control (%s) that allows every destination", [by(w)]) if {
	object.get(egress(w), "allow_all", false) == true
} else := sprintf("has an egress control (%s) that does not deny by default", [by(w)]) if {
	object.get(egress(w), "restricted", false) != true
}

by(w) := egress(w).by if {
	object.get(egress(w), "by", "") != ""
} else := "unnamed"

deny contains f if {
	some w in input.workloads
	not isolated(w)
	p := problem(w)
	f := sa.finding(
		rego.metadata.chain(), w,
		sprintf("%s %s: %s", [wl.label(w), p, how(w)]),
	)
}
