# Package lib.workload holds the helpers the workload rules share: how a
# workload is named in a message, how a boolean fact is read when it may be
# absent. It is a library, not a rule: it emits no findings.
package lib.workload

import data.lib.sa

# runtime_sockets: the file names of container runtime API sockets; a
# workload that mounts one from the host controls the host's containers.
runtime_sockets := {"docker.sock", "containerd.sock", "crio.sock", "podman.sock", "buildkitd.sock", "dockershim.sock"}

# runtime_socket(m): the runtime socket mount m brings in, if any: a
# source that is one, or a host path or variable bound where a client looks
# for one (${DOCKER_SOCKET}:/var/run/docker.sock, Docker Desktop's
# /var/run/docker.sock.raw).
runtime_socket(m) := s if {
	some s in runtime_sockets
	endswith(m.source, s)
} else := s if {
	object.get(m, "type", "") in {"bind", "hostPath"}
	some s in runtime_sockets
	endswith(object.get(m, "target", ""), s)
}

# A devcontainer that runs in a compose service and that service, both
# read, are one container. network_in_service(w): w is the devcontainer;
# the service's workload speaks for the container's network (it carries
# the networks, capabilities and the egress of the devcontainer's firewall
# script), so the egress rules judge it there, once.
network_in_service(w) if object.get(w, ["compose", "resolved"], false) == true

# user_in_devcontainer(w): w is the service; the devcontainer's workload
# speaks for the user the agent runs as (remoteUser, features' sudo), so the
# user rules judge it there, once.
user_in_devcontainer(w) if object.get(w, "devcontainer", "") != ""

# psa_restricted(w): w is a Kubernetes container in a namespace of the scan
# labelled pod-security.kubernetes.io/enforce: restricted. The API server
# admits none of its pods unless each container sets allowPrivilegeEscalation
# false, runAsNonRoot true, drops every capability and runs under a seccomp
# profile: a pod spec that leaves them out does not run.
psa_restricted(w) if {
	object.get(w, "source", "") == "kubernetes"
	object.get(w, "namespace", "") in psa_restricted_namespaces
}

psa_restricted_namespaces contains ns.name if {
	some ns in object.get(input, "namespaces", [])
	object.get(ns, ["labels", "pod-security.kubernetes.io/enforce"], "") == "restricted"
}

# script_not_read(w): w's only egress control is a firewall script that is
# not among the files read (model.NotAmongRead): what it does is unknown.
script_not_read(w) if {
	is_object(object.get(w, "egress", null))
	object.get(w.egress, ["script", "not_read"], "") == "not among the files read"
}

# label(w) names a workload the way its format does, so a reader finds it:
# "compose service app", "Kubernetes container Deployment/default/api/main",
# "devcontainer dev".
label(w) := sprintf("%s %s", [kind(w), name(w)])

kind(w) := "compose service" if {
	object.get(w, "source", "") == "compose"
} else := "Kubernetes container" if {
	object.get(w, "source", "") == "kubernetes"
} else := "devcontainer" if {
	object.get(w, "source", "") == "devcontainer"
} else := "running container" if {
	object.get(w, "source", "") == "docker"
} else := sprintf("container %s starts", [object.get(w, "file", "a script")]) if {
	object.get(w, "source", "") == "script"
} else := "workload"

# name prefers the Kubernetes id (kind/namespace/workload/container) over the
# bare container name, which is often "main" or "app" in every pod.
name(w) := trim_prefix(w.id, "k8s:") if {
	object.get(w, "source", "") == "kubernetes"
	object.get(w, "id", "") != ""
} else := w.name if {
	object.get(w, "name", "") != ""
} else := w.id if {
	object.get(w, "id", "") != ""
} else := "(unnamed)"

# is_true(w, key): the optional Bool fact key is set and true.
is_true(w, key) if object.get(w, [key, "value"], false) == true

# is_false(w, key): the optional Bool fact key is set and explicitly false.
is_false(w, key) if object.get(w, [key, "value"], true) == false

# str(w, key): the lower-cased value of an optional Str fact, "" when absent.
str(w, key) := lower(trim_space(object.get(w, [key, "value"], "")))

# opt(o) normalises a security_opt entry: "seccomp:unconfined" and
# "seccomp = unconfined" both become "seccomp=unconfined" (Docker accepts the
# colon form for compatibility).
opt(o) := replace(replace(lower(o), " ", ""), ":", "=")

# judged(w): the sandbox rules judge w — it is the agent's workload, or no
# workload of its repository is known to be the agent's (collectors/roles
# sets judged; a workload without the field, as in a user's own input, is
# judged).
judged(w) if object.get(w, "judged", true) == true

# judged_workloads: the workloads the sandbox rules judge, worked out once
# per evaluation (a rule's `some w in wl.judged_workloads`).
judged_workloads := [w | some w in input.workloads; judged(w)]

# complete_workloads: the judged workloads whose definition is whole. A
# rule that fires on what a definition leaves out (no egress control, the
# default runtime) judges these: a compose override's fragment (overlay: no
# image, build or extends) adds keys to a service another file defines, and
# what it leaves out is that file's to say.
complete_workloads := [w | some w in judged_workloads; not object.get(w, "overlay", false)]

# role(w) says what w is when it is not judged, for the messages of notes:
# "platform: its image postgres is a database".
role(w) := sprintf("%s: %s", [object.get(w, "role", "unknown"), object.get(w, "role_reason", "")]) if {
	object.get(w, "role_reason", "") != ""
} else := object.get(w, "role", "unknown")

# result(chain, w, loc, msg) is the finding of a rule whose fact breaks the
# boundary wherever it sits (a runtime socket, the host's root, privileged
# mode): a finding for a judged workload, a note for any other, since a
# platform service holding the host's Docker socket is still worth knowing.
result(chain, w, loc, msg) := sa.finding(chain, loc, msg) if {
	judged(w)
} else := sa.finding(chain, loc, sprintf("%s, and the agent (compose service %s) reaches its API over the network", [msg, w.reachable_by])) if {
	object.get(w, "reachable_by", "") != ""
} else := sa.note(chain, loc, sprintf("%s (not the agent's sandbox — %s)", [msg, role(w)]))

# home_re matches a host path in a home directory: ~/…, ${localEnv:HOME}/…,
# ${HOME}/…, $HOME/…, /home/<user>/…, /root/…, /Users/<user>/….
home_re := `^(?:~|(?:\$\{(?:localEnv:|env:)?(?:HOME|USERPROFILE)[^}]*\}|\$(?:HOME|USERPROFILE))+|/home/[^/]+|/root|/Users/[^/]+|[A-Za-z]:/Users/[^/]+)(/.*)?$`

# home_rest(src) is the path below a home directory ("" for the home itself),
# undefined when src is not under one.
home_rest(src) := rest if {
	s := replace(src, "\\", "/")
	some m in regex.find_all_string_submatch_n(home_re, s, 1)
	rest := trim(regex.replace(m[1], "/+", "/"), "/")
}

# not_host are mount types that never name a host path.
not_host := {"volume", "pvc", "tmpfs", "secret", "configmap", "emptyDir", "image", "npipe"}

host_mount(m) if {
	not object.get(m, "type", "") in not_host
	object.get(m, "source", "") != ""
}


# scripted are the workloads whose egress a firewall script restricts:
# worked out once for the rules about such scripts.
scripted contains w if {
	some w in judged_workloads
	not network_in_service(w)
	object.get(w.egress, "script_unverified", false) == true
	w.egress.restricted == true
}

# home_mounts maps [workload index, mount index] to the path below the home
# directory of each host mount of a home path: worked out once for the
# rules about home-directory mounts.
home_mounts[[i, j]] := rest if {
	some i, w in input.workloads
	judged(w)
	some j, m in w.mounts
	regex.match(`~|HOME|USERPROFILE|/home/|/root|Users`, m.source)
	host_mount(m)
	rest := home_rest(m.source)
}

# rel_mounts are [workload index, mount] for the mounts placed relative to
# the repository (workspace_rel set), and the workspace mount.
rel_mounts contains [i, m] if {
	some i, w in input.workloads
	judged(w)
	m := w.mounts[_]
	m.workspace_rel != ""
}

rel_mounts contains [i, m] if {
	some i, w in input.workloads
	judged(w)
	m := w.workspace
	m.workspace_rel != ""
}
