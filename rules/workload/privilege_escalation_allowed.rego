# METADATA
# title: Privilege escalation not blocked
# description: |
#   Without no_new_privs a process in the sandbox can gain privileges through
#   setuid/setgid binaries and file capabilities (sudo, su, a planted setuid
#   shell), which turns a non-root agent into root inside the container and one
#   step closer to the host. Kubernetes allows escalation unless
#   allowPrivilegeEscalation is false, so Kubernetes containers fire when it is
#   unset; other formats fire only when escalation is explicitly allowed.
#   A no-new-privileges security option counts as blocking it.
# related_resources:
#   - ref: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/
#     description: Kubernetes — allowPrivilegeEscalation controls no_new_privs
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Restricted requires allowPrivilegeEscalation false
#   - ref: https://docs.kernel.org/userspace-api/no_new_privs.html
#     description: Linux kernel — no_new_privs
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — RULE #4 prevent in-container privilege escalation
# custom:
#   id: privilege-escalation-allowed
#   property: disposable
#   severity: low
#   remediation: Set securityContext.allowPrivilegeEscalation false (Kubernetes) or security_opt no-new-privileges:true (compose, devcontainer --security-opt), and do not install sudo or setuid helpers in the sandbox image.
package rules.privilege_escalation_allowed

import data.lib.sa
import data.lib.workload as wl

blocked(w) if {
	some o in w.security_opt
	wl.opt(o.value) in {"no-new-privileges", "no-new-privileges=true"}
}

# A privileged container has every privilege already: privileged-container
# says so, and escalation adds nothing to it.
blocked(w) if wl.is_true(w, "privileged")

# Pod Security Admission's restricted profile refuses the pod unless it
# sets allowPrivilegeEscalation false.
blocked(w) if wl.psa_restricted(w)

deny contains f if {
	some w in wl.judged_workloads
	object.get(w, "source", "") == "kubernetes"
	not w.allow_privilege_escalation
	not blocked(w)
	f := sa.finding(
		rego.metadata.chain(), w,
		sprintf("%s does not set allowPrivilegeEscalation false: setuid binaries can raise its privileges", [wl.label(w)]),
	)
}

deny contains f if {
	some w in wl.judged_workloads
	wl.is_true(w, "allow_privilege_escalation")
	not blocked(w)
	f := sa.finding(
		rego.metadata.chain(), w.allow_privilege_escalation,
		sprintf("%s allows privilege escalation: setuid binaries can raise its privileges", [wl.label(w)]),
	)
}
