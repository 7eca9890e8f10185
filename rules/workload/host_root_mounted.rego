# METADATA
# title: Host system directory mounted into the sandbox
# description: |
#   A bind or hostPath mount of the host's /, /etc, /var, /usr, /boot, /proc,
#   /sys, /dev, /run (or /var/run), /bin, /sbin, /lib or a container runtime's
#   state directory (/var/lib/docker, /var/lib/containerd, /var/lib/kubelet,
#   /etc/kubernetes) or a user's runtime directory (/run/user/1000, holding the
#   session bus, ssh and gpg agents, rootless Docker) hands the agent the
#   host itself: it can plant cron jobs or binaries that outlive the task, read
#   /etc/shadow, kubelet and runtime credentials, and reach other containers'
#   filesystems.
#
#   Read-only mounts are reported at the same critical severity, and the message
#   says which kind it is: read-only does not stop connecting to the sockets
#   under /run, writing to device nodes under /dev, or reading every secret on
#   the host. Subdirectories (e.g. /etc/ssl/certs, /dev/fuse) are not reported,
#   except under the runtime state directories.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/storage/volumes/#hostpath
#     description: Kubernetes — hostPath volumes present many security risks
#   - ref: https://docs.docker.com/engine/storage/bind-mounts/
#     description: Docker — bind mounts give the container access to the host filesystem
#   - ref: https://kubernetes.io/docs/concepts/security/pod-security-standards/
#     description: Kubernetes Pod Security Standards — Baseline forbids hostPath volumes
#   - ref: https://www.cisecurity.org/benchmark/docker
#     description: CIS Docker Benchmark — 5.x ensure sensitive host system directories are not mounted
# custom:
#   id: host-root-mounted
#   property: disposable
#   severity: critical
#   remediation: Remove the host mount. Give the sandbox only the workspace it works on (a bind of the repository, or better a fresh clone in an ephemeral volume); pass configuration as files or secrets, not the host's system directories.
package rules.host_root_mounted

import data.lib.sa
import data.lib.workload as wl

system_dirs := {
	"/", "/etc", "/var", "/usr", "/boot", "/proc", "/sys", "/dev", "/run", "/var/run",
	"/lib", "/lib64", "/bin", "/sbin",
}

# Runtime state: anything under these is another container's filesystem or a
# node credential.
state_dirs := {"/var/lib/docker", "/var/lib/containerd", "/var/lib/kubelet", "/etc/kubernetes"}

# Mount types that never name a host path.
not_host := {"volume", "pvc", "tmpfs", "secret", "configmap", "emptyDir", "image", "npipe"}

# clean collapses repeated slashes and drops a trailing one: "//etc/" -> "/etc".
clean(p) := "/" if {
	regex.replace(p, "/+", "/") == "/"
} else := trim_suffix(regex.replace(p, "/+", "/"), "/")

system(p) if p in system_dirs

system(p) if p in state_dirs

system(p) if {
	some d in state_dirs
	startswith(p, concat("", [d, "/"]))
}

# A user's runtime directory (/run/user/1000): its session bus runs any
# command on the host as that user (systemd-run --user), beside the ssh
# and gpg agents and a rootless Docker or Podman socket that live there.
system(p) if regex.match(`^/(var/)?run/user(/[0-9]+)?$`, p)

deny contains f if {
	some w in input.workloads
	some m in w.mounts
	not object.get(m, "type", "") in not_host
	startswith(object.get(m, "source", ""), "/")
	src := clean(m.source)
	system(src)
	f := wl.result(rego.metadata.chain(), w, m,
		sprintf("%s mounts the host's %s at %s %s", [wl.label(w), src, object.get(m, "target", "?"), mode(m)]),
	)
}

mode(m) := "read-only (its sockets, devices and secrets stay reachable)" if {
	object.get(m, "read_only", false) == true
} else := "read-write"
