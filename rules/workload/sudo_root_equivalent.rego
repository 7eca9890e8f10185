# METADATA
# title: The sandbox user has passwordless sudo to root
# description: |
#   The user the workload runs as (the agent's user) can run sudo without a
#   password for every command, or for a command that runs anything as root (a
#   shell, an interpreter, a package manager, a file writer, docker, usermod…,
#   and iptables, whose --modprobe option runs a program of the caller's
#   choice, ip, whose netns exec runs any command, and sysctl), or for a script in a place the agent can write. That user is root in all but
#   name: running as non-root protects nothing, and any control set up inside the
#   container — a firewall script, a read-only mount, a dropped file — is one
#   command away from undone. Grants come from sudoers lines the Dockerfile writes
#   (echo … > /etc/sudoers.d/x, %sudo with NOPASSWD and the user added to the
#   group), the devcontainer common-utils feature (passwordless sudo for its user
#   by default) and the Dev Containers images built with it. A grant limited to
#   one root-owned script (the reference devcontainer's firewall script) is not
#   root-equivalent and is not reported, nor is any grant in a container that
#   runs with no-new-privileges, where sudo cannot raise privileges.
# related_resources:
#   - ref: https://www.sudo.ws/docs/man/sudoers.man/
#     description: sudoers(5) — user specifications, NOPASSWD and command lists
#   - ref: https://gtfobins.github.io/#+sudo
#     description: GTFOBins — programs that escalate to root when run with sudo
#   - ref: https://github.com/devcontainers/features/tree/main/src/common-utils
#     description: Dev Containers common-utils feature — creates a non-root user with sudo
#   - ref: https://code.visualstudio.com/remote/advancedcontainers/add-nonroot-user
#     description: VS Code — adding a non-root user (and the sudo line it suggests)
# custom:
#   id: sudo-root-equivalent
#   property: disposable
#   severity: medium
#   remediation: Do not give the agent's user sudo. If setup needs root, do it in the Dockerfile or in a lifecycle step that runs as root before the agent starts; if a command must run as root later, grant exactly that root-owned command (a sudoers line naming only /usr/local/bin/init-firewall.sh) and nothing the agent can write. Set the common-utils feature's username to none, or remove sudo from the image.
package rules.sudo_root_equivalent

import data.lib.privilege
import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	not wl.user_in_devcontainer(w)
	g := w.sudo[_]
	why := privilege.root_equivalent(g)
	not _explicit_root(w)
	not _root_on_host(w)
	not _no_new_privileges(w)
	user := privilege.runtime_user_or(w)
	f := sa.finding(
		rego.metadata.chain(), g,
		sprintf("%s runs as %s, which can run sudo without a password for %s (%s): root in the container, so running as non-root and any control set up inside it stop holding", [wl.label(w), user, why, _via(g)]),
	)
}

# A workload that runs as root is reported by container-runs-as-root; sudo
# adds nothing to it.
_explicit_root(w) if privilege.root_user(privilege.runtime_user(w))

# A privileged container, or one holding the host's container runtime
# socket, gives its user the host already (privileged-container and
# runtime-socket-mounted say so, higher): sudo inside it adds nothing.
_root_on_host(w) if wl.is_true(w, "privileged")

_root_on_host(w) if {
	some m in w.mounts
	wl.runtime_socket(m)
}

# no-new-privileges (allowPrivilegeEscalation: false): the kernel ignores
# sudo's setuid bit, so the grant cannot be used.
_no_new_privileges(w) if w.allow_privilege_escalation.value == false

_via(g) := "written by the Dockerfile" if object.get(g, "via", "") == "sudoers"

else := object.get(g, "via", "sudoers")
