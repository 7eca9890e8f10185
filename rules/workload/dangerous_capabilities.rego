# METADATA
# title: Dangerous Linux capability added
# description: |
#   Some capabilities are each enough to leave the container or to read what the
#   host keeps from it: SYS_ADMIN (mount, namespaces, cgroup release_agent),
#   SYS_PTRACE (read other processes' memory), SYS_MODULE (load kernel code),
#   SYS_RAWIO and DAC_READ_SEARCH (raw devices, open_by_handle_at "shocker"
#   escape), NET_ADMIN (rewrite routes and firewall rules, so egress limits stop
#   holding), BPF/PERFMON (kernel tracing), SYS_BOOT, MAC_ADMIN/MAC_OVERRIDE
#   (disable LSM policy) and ALL. One finding per capability, at its line.
#   NET_ADMIN (added so that a firewall script can program the filter,
#   whether or not the script was read, or shared through a YAML anchor by
#   services that run none) is not reported when the agent cannot
#   use it: the workload runs as a known non-root user, whose processes
#   hold no capability, is not privileged, and has no sudo that reaches root
#   or the packet filter (the reference Claude Code devcontainer; a
#   firewall script the agent may rerun as root with hosts it writes changes
#   what the script allows, which egress-firewall-undoable reports, not what
#   the agent's processes may do); otherwise egress-firewall-undoable says
#   how the agent can.
# related_resources:
#   - ref: https://man7.org/linux/man-pages/man7/capabilities.7.html
#     description: capabilities(7) — what each capability allows
#   - ref: https://docs.docker.com/engine/containers/run/#runtime-privilege-and-linux-capabilities
#     description: Docker — runtime privilege and Linux capabilities
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline forbids adding capabilities beyond a short safe list
#   - ref: https://cheatsheetseries.owasp.org/cheatsheets/Docker_Security_Cheat_Sheet.html
#     description: OWASP Docker Security Cheat Sheet — RULE #3 limit capabilities
# custom:
#   id: dangerous-capabilities
#   property: disposable
#   severity: high
#   remediation: Remove the capability from cap_add / securityContext.capabilities.add / --cap-add and drop ALL, adding back only NET_BIND_SERVICE-class capabilities the workload provably needs. Tasks that need SYS_ADMIN (nested containers, FUSE) belong in a gVisor or microVM sandbox.
package rules.dangerous_capabilities

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

# why says, per capability, what it hands to code in the sandbox.
why := {
	"ALL": "every capability, equivalent to privileged for escapes",
	"SYS_ADMIN": "mount, namespace and cgroup control, the classic container escape",
	"SYS_PTRACE": "tracing and reading the memory of other processes",
	"SYS_MODULE": "loading kernel modules into the host kernel",
	"SYS_RAWIO": "raw I/O on host devices and memory",
	"DAC_READ_SEARCH": "open_by_handle_at, which reads host files outside the container",
	"NET_ADMIN": "rewriting routes and firewall rules, which defeats egress limits",
	"BPF": "loading eBPF programs into the host kernel",
	"PERFMON": "kernel performance monitoring and eBPF tracing",
	"SYS_BOOT": "rebooting the host and loading a new kernel",
	"MAC_ADMIN": "changing the AppArmor/SELinux policy that confines it",
	"MAC_OVERRIDE": "overriding the AppArmor/SELinux policy that confines it",
	"SYSLOG": "reading the kernel log and kernel addresses",
	"SYS_TIME": "setting the host clock",
	"LINUX_IMMUTABLE": "clearing immutable and append-only file flags",
	"CHECKPOINT_RESTORE": "checkpointing and restoring other processes",
}

# norm accepts "cap_sys_admin" and " SYS_ADMIN " alike.
norm(c) := trim_prefix(upper(trim_space(c)), "CAP_")

deny contains f if {
	some w in wl.judged_workloads
	some c in w.cap_add
	cap := norm(c.value)
	reason := why[cap]
	not _for_script(w, cap)
	f := sa.finding(
		rego.metadata.chain(), c,
		sprintf("%s adds capability %s: %s", [wl.label(w), cap, reason]),
	)
}

# NET_ADMIN held for the firewall script only: the agent's user cannot use it.
_for_script(w, "NET_ADMIN") if privilege.caps_unusable(w)
