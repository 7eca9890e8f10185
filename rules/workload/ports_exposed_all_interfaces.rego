# METADATA
# title: Port published on all host interfaces
# description: |
#   A port published without a bind address ("8080:8080", "3000", a Kubernetes
#   hostPort) listens on every interface of the host, so anything on the
#   network can reach the service in the sandbox (a dev server, a debugger, a
#   notebook) and, through it, the agent's workspace. Docker's own firewall
#   rules bypass host firewalls such as ufw for published ports. Bind to
#   127.0.0.1 or ::1 instead. Devcontainer forwardPorts are not judged: the
#   tooling forwards them to the local machine only.
# related_resources:
#   - ref: https://docs.docker.com/engine/network/port-publishing/
#     description: Docker — port publishing; ports are published on all addresses by default
#   - ref: https://docs.docker.com/reference/compose-file/services/#ports
#     description: Compose services — ports and host_ip
#   - ref: https://kubernetes.io/docs/concepts/configuration/overview/
#     description: Kubernetes configuration best practices — avoid hostPort
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline restricts hostPort
# custom:
#   id: ports-exposed-all-interfaces
#   property: network
#   severity: low
#   remediation: Publish to loopback only ("127.0.0.1:8080:8080" or host_ip 127.0.0.1 in compose), drop hostPort in Kubernetes and reach the pod with kubectl port-forward, or do not publish the port at all.
package rules.ports_exposed_all_interfaces

import data.lib.sa
import data.lib.workload as wl

# spec drops the protocol: "127.0.0.1:80:80/tcp" -> "127.0.0.1:80:80".
spec(p) := regex.replace(trim_space(p), `/(tcp|udp|sctp)$`, "")

# addr is the bind address when the port names one ("" when it does not):
# "[::1]:80:80" -> "::1", "127.0.0.1:80:80" and "127.0.0.1::80" -> "127.0.0.1".
addr(s) := trim_left(split(s, "]")[0], "[") if {
	startswith(s, "[")
} else := split(s, ":")[0] if {
	count(split(s, ":")) >= 3
} else := ""

loopback(a) if startswith(a, "127.")

loopback(a) if lower(a) in {"::1", "localhost"}

# An address that is still a variable cannot be judged.
unknown(a) if contains(a, "$")

deny contains f if {
	some w in wl.judged_workloads
	object.get(w, "source", "") != "devcontainer"
	some p in w.ports
	s := spec(p.value)
	a := addr(s)
	not loopback(a)
	not unknown(a)
	f := sa.finding(rego.metadata.chain(), p, msg(w, s, a))
}

msg(w, s, "") := sprintf("%s publishes port %s on all host interfaces", [wl.label(w), s])

msg(w, s, a) := sprintf("%s publishes port %s on %s, not loopback", [wl.label(w), s, a]) if a != ""
