# METADATA
# title: Persistent volume carries state between tasks
# description: |
#   A named volume or a PersistentVolumeClaim outlives the container: whatever
#   one task leaves there (a poisoned dependency cache, a modified git hook, a
#   planted binary on a PATH directory) is there when the next task,
#   possibly for another repository or user, starts. The sandbox is then not
#   disposable. A writable Kubernetes hostPath is the node's directory, there
#   for the next pod scheduled on it. Anonymous volumes, tmpfs, emptyDir,
#   read-only host paths and a volume that keeps only the shell's history
#   (the reference devcontainer's /commandhistory: nothing runs it) are not
#   reported. A workload's persistent volumes are one finding, at the first,
#   that names them all.
# related_resources:
#   - ref: https://docs.docker.com/engine/storage/volumes/
#     description: Docker — volumes persist beyond the container's lifecycle
#   - ref: https://kubernetes.io/docs/concepts/storage/persistent-volumes/
#     description: Kubernetes — persistent volumes and claims
#   - ref: https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/
#     description: Kubernetes — ephemeral volumes live and die with the pod
#   - ref: https://containers.dev/implementors/json_reference/
#     description: Dev Container metadata reference — named volumes survive rebuilds
# custom:
#   id: persistent-state-volume
#   property: disposable
#   severity: medium
#   remediation: Use tmpfs, an anonymous volume removed with the container (docker compose down -v), emptyDir or a generic ephemeral volume. If a cache must persist, make it read-only in the sandbox and fill it from a trusted job, or key it to one repository and discard it on any doubt.
package rules.persistent_state_volume

import data.lib.sa
import data.lib.workload as wl

kinds := {"volume": "named volume", "pvc": "PersistentVolumeClaim", "hostPath": "host path"}

# One finding per workload, at its first persistent volume, naming every
# one: a devcontainer with six caches is one decision to make, not six.
deny contains f if {
	some w in wl.judged_workloads
	vols := [m | some m in w.mounts; _persistent(m); not _in_service(w, m)]
	count(vols) > 0
	first := sort([[object.get(m, "line", 0), i] | some i, m in vols])[0]
	f := sa.finding(
		rego.metadata.chain(), vols[first[1]],
		sprintf("%s keeps %s: %s outlive the task", [wl.label(w), concat(", ", [_describe(m) | some m in vols]), _them(vols)]),
	)
}

# A devcontainer's mount that the compose service it runs in declares too
# is one volume of one container: reported once, at the service.
_in_service(w, m) if {
	wl.network_in_service(w)
	some s in input.workloads
	s.devcontainer == w.file
	some n in s.mounts
	n.type == m.type
	n.source == m.source
	n.target == m.target
}

_persistent(m) if {
	object.get(m, "persistent", false) == true
	object.get(m, "type", "") in {"volume", "pvc"}
	not _shell_history(m)
}

# A volume that keeps only the shell's history (the reference Claude Code
# devcontainer's /commandhistory): lines to scroll back through, which
# nothing runs on its own.
_shell_history(m) if regex.match(`(?i)(^|/)(\.?(bash|zsh|shell|command|cmd)_?history)/?$`, object.get(m, "target", ""))

# A writable Kubernetes hostPath is a directory of the node: the next pod
# scheduled there finds what this one left. System directories, devices,
# sockets and home directories are host-root-mounted's, runtime-socket-
# mounted's and host-home-state-writable's to report.
_persistent(m) if {
	m.type == "hostPath"
	not m.read_only
	src := object.get(m, "source", "")
	startswith(src, "/")
	not regex.match(`^/+(dev|proc|sys|run|var/run|etc|boot|home|root|Users|var/lib/(docker|containerd|kubelet))(/|$)|^/+$|\.sock$`, src)
}

_describe(m) := sprintf("%s %s at %s", [kinds[m.type], object.get(m, "source", ""), object.get(m, "target", "?")])

_them(vols) := "its contents" if count(vols) == 1
else := "their contents"
