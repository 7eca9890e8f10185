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
#   quiet for network none. A control that reaches every destination on an
#   HTTP or HTTPS port (a NetworkPolicy to 0.0.0.0/0 on 443, Cilium's world on
#   443) counts as allowing every destination: exfiltration needs nothing else.
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
	"script": "add --network none to the docker run command, or run it on an internal network (docker network create --internal) with an egress proxy",
}

# The NetworkPolicy agent-sandbox's controller keeps for a SandboxTemplate
# is changed in the template, not beside it.
how(w) := "set spec.networkPolicy.egress in the SandboxTemplate to the destinations the sandbox needs (an empty list denies all)" if {
	startswith(object.get(object.get(w, "egress", {}), "by", ""), "agent-sandbox NetworkPolicy")
} else := fix[object.get(w, "source", "")] if {
	fix[object.get(w, "source", "")]
} else := "deny outbound traffic by default and allow only named destinations"

isolated(w) if wl.str(w, "network_mode") == "none"

# A devcontainer that runs in a compose service takes its network from the
# compose file (runArgs do not apply): the service is judged there.
isolated(w) if {
	object.get(w, "source", "") == "devcontainer"
	is_object(object.get(w, "compose", null))
}

# egress(w) is the declared egress control, null when there is none.
egress(w) := object.get(w, "egress", null)

# The ways to be unrestricted, each with its own wording.
problem(w) := "declares no egress restriction" if {
	not is_object(egress(w))
} else := sprintf("runs firewall script %s, which programs no packet filter: nothing shows that egress is denied by default", [egress(w).script.runs]) if {
	object.get(egress(w), ["script", "not_read"], "") == "it programs no packet filter"
} else := sprintf("runs firewall script %s as %s without sudo: a non-root user cannot program the packet filter, so its rules never apply", [egress(w).script.path, privilege.runtime_user(w)]) if {
	privilege.script_powerless(w)
} else := sprintf("has an egress control (%s) that allows every destination", [by(w)]) if {
	object.get(egress(w), "allow_all", false) == true
} else := sprintf("has an egress control (%s) that allows every destination on %s", [by(w), concat(", ", web_ports(w))]) if {
	count(web_ports(w)) > 0
} else := sprintf("has an egress control (%s) that does not deny by default", [by(w)]) if {
	object.get(egress(w), "restricted", false) != true
}

# web_ports(w) are the ports on which the control lets the workload reach
# any host (Kubernetes, Cilium and Calico policies list them as open_ports)
# and that carry HTTP or HTTPS: the internet is then one request away.
web_ports(w) := sort([p | some p in object.get(egress(w), "open_ports", []); web_port(p)])

web_port(p) if port_of(p) in {"80", "443", "8080", "*"}

web_port(p) if {
	regex.match(`^[0-9]+-[0-9]+$`, port_of(p))
	r := split(port_of(p), "-")
	to_number(r[0]) <= 443
	to_number(r[1]) >= 443
}

# port_of("TCP/443") is "443".
port_of(p) := parts[count(parts) - 1] if parts := split(p, "/")

by(w) := egress(w).by if {
	object.get(egress(w), "by", "") != ""
} else := "unnamed"

# unverified_only: the only control found may not select the workload (a
# policy on labels the scan cannot know); egress-unverified reports it.
unverified_only(w) if {
	is_object(egress(w))
	object.get(egress(w), "restricted", false) != true
	count(object.get(egress(w), "unverified", [])) > 0
}

# On the host's network stack no container egress control applies at all:
# host-network reports that, more precisely, at the setting.
host_stack(w) if wl.is_true(w, "host_network")

host_stack(w) if wl.str(w, "network_mode") == "host"

deny contains f if {
	some w in wl.complete_workloads
	not wl.network_in_service(w)
	not isolated(w)
	not unverified_only(w)
	not wl.script_not_read(w) # egress-unverified's; network is unknown
	not host_stack(w)
	p := problem(w)
	f := sa.finding(
		rego.metadata.chain(), w,
		sprintf("%s %s: %s", [wl.label(w), p, how(w)]),
	)
}
