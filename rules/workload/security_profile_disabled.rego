# METADATA
# title: Seccomp, AppArmor or SELinux confinement disabled
# description: |
#   The runtime's default seccomp profile blocks the system calls behind most
#   kernel escapes (unshare, mount, keyctl, bpf…); the AppArmor and SELinux
#   profiles stop writes to /proc and /sys and access to host files. Turning
#   them off (seccomp unconfined, apparmor=unconfined, label=disable,
#   systempaths=unconfined) removes the layer that keeps a kernel bug or a
#   misconfiguration from becoming a host compromise.
# related_resources:
#   - ref: https://docs.docker.com/engine/security/seccomp/
#     description: Docker — seccomp security profiles
#   - ref: https://docs.docker.com/engine/security/apparmor/
#     description: Docker — AppArmor security profiles
#   - ref: https://kubernetes.io/docs/tutorials/security/seccomp/
#     description: Kubernetes — restrict a container's syscalls with seccomp
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline forbids Unconfined seccomp and AppArmor
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — use Linux security modules
# custom:
#   id: security-profile-disabled
#   property: disposable
#   severity: medium
#   remediation: Remove seccomp=unconfined, apparmor=unconfined, label=disable and systempaths=unconfined from security_opt / runArgs, and set seccompProfile type RuntimeDefault (or a Localhost profile) in Kubernetes.
package rules.security_profile_disabled

import data.lib.sa
import data.lib.workload as wl

# disabling maps a normalised security_opt entry to what it turns off.
disabling := {
	"seccomp=unconfined": "seccomp",
	"apparmor=unconfined": "AppArmor",
	"label=disable": "SELinux labelling",
	"label=type=spc_t": "SELinux confinement (spc_t)",
	"systempaths=unconfined": "masking of /proc and /sys paths",
}

deny contains f if {
	some w in wl.judged_workloads
	wl.str(w, "seccomp") == "unconfined"
	f := sa.finding(rego.metadata.chain(), w.seccomp, msg(w, "seccomp"))
}

deny contains f if {
	some w in wl.judged_workloads
	some o in w.security_opt
	what := disabling[wl.opt(o.value)]
	f := sa.finding(rego.metadata.chain(), o, msg(w, what))
}

msg(w, what) := sprintf("%s runs with %s disabled", [wl.label(w), what])
