# Package lib.live holds the helpers the live rules share. It is a library,
# not a rule: it emits no findings. Live facts come from `scan --live`
# (input.live, see model/live.go); every fact carries a pseudo-path
# live/<check> at line 1, which is what findings point to.
package lib.live

# in_container: the audit ran in a plain container, sharing a kernel.
in_container if input.live.isolation.kind == "container"

# vm_names are the VM layers the isolation stack names, as said.
vm_names := {"firecracker": "Firecracker microVM", "vm": "VM"}

# in_vm: a VM layer encloses the sandbox (host > VM > container).
in_vm if {
	some l in object.get(input.live.isolation, "layers", [])
	vm_names[l]
}

# isolation(l) describes the isolation for messages: "container (docker)".
isolation := sprintf("%s (%s)", [input.live.isolation.kind, input.live.isolation.runtime]) if {
	input.live.isolation.runtime != ""
} else := input.live.isolation.kind

# where(c) names where a live credential sits: "environment variable X",
# "file /root/.aws/credentials [default.aws_secret_access_key]".
where(c) := sprintf("environment variable %s", [c.name]) if {
	c.source == "env"
} else := sprintf("SSH agent (%s)", [c.name]) if {
	c.source == "ssh-agent"
} else := sprintf("file %s", [stable(c.name)])

# stable(p) replaces the per-job part of actions/checkout's credentials
# file name, so a finding keeps its fingerprint from one job to the next.
stable(p) := regex.replace(p, `git-credentials-[0-9a-fA-F-]+\.config`, "git-credentials-*.config")

# usable(c): not known to have expired.
usable(c) if not object.get(c, "expired", false)

# socket_name(s) is the socket's path or tcp endpoint.
socket_name(s) := s.path if {
	object.get(s, "path", "") != ""
} else := s.endpoint

# label(w) names a configured workload for drift messages, the way the
# workload rules do: "Kubernetes container Deployment/ns/app/main".
label(w) := sprintf("%s %s", [wkind(w), wname(w)])

wkind(w) := "compose service" if {
	object.get(w, "source", "") == "compose"
} else := "Kubernetes container" if {
	object.get(w, "source", "") == "kubernetes"
} else := "devcontainer" if {
	object.get(w, "source", "") == "devcontainer"
} else := "running container" if {
	object.get(w, "source", "") == "docker"
} else := "workload"

wname(w) := trim_prefix(w.id, "k8s:") if {
	object.get(w, "source", "") == "kubernetes"
	object.get(w, "id", "") != ""
} else := w.name if {
	object.get(w, "name", "") != ""
} else := "(unnamed)"

# str(o, key): the lower-cased value of an optional Str fact, "" when absent.
str(o, key) := lower(trim_space(object.get(o, [key, "value"], "")))

# is_false(o, key): the optional Bool fact key is set and explicitly false.
is_false(o, key) if object.get(o, [key, "value"], true) == false

# judged(w): w is a workload the sandbox rules judge (collectors/roles), so
# what it declares is a claim about the agent's sandbox; a workload without
# the field is judged.
judged(w) if object.get(w, "judged", true) == true
