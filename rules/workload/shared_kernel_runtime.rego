# METADATA
# title: Sandbox shares the host kernel
# description: |
#   With runc (the default for Docker and most Kubernetes nodes) or another
#   namespace-only runtime, the sandbox's processes make system calls straight
#   into the host's kernel: one kernel bug, or one of the privileges other
#   rules report, is a host compromise. Running untrusted agent code is what
#   user-space kernels (gVisor) and microVMs (Kata Containers, Firecracker) are
#   built for. Applies to Kubernetes, compose (but a compose file a
#   devcontainer runs in, which like a devcontainer is a developer's
#   machine) and running Docker containers (docker://) whose runtime is
#   unset or a known shared-kernel runtime (runc, crun, youki, nvidia);
#   gVisor, Kata, Firecracker and Sysbox, and runtime class names it cannot
#   classify, stay quiet, and so does a runner given /dev/kvm that no agent
#   works in itself (vm_host): the code it runs is in its microVMs.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/containers/runtime-class/
#     description: Kubernetes — RuntimeClass selects a sandboxed runtime per pod
#   - ref: https://gvisor.dev/docs/
#     description: gVisor — an application kernel that isolates containers from the host kernel
#   - ref: https://katacontainers.io/
#     description: Kata Containers — containers in lightweight VMs
#   - ref: https://firecracker-microvm.github.io/
#     description: Firecracker — microVMs for multi-tenant workloads
#   - ref: https://docs.docker.com/engine/daemon/alternative-runtimes/
#     description: Docker — alternative container runtimes (runtime in compose, --runtime)
# custom:
#   id: shared-kernel-runtime
#   property: disposable
#   severity: low
#   remediation: Run the sandbox under gVisor (runtimeClassName gvisor / runtime runsc), Kata Containers or Firecracker, or in a VM per task. Kubernetes - install the runtime on a node pool and set runtimeClassName; compose - register the runtime with the daemon and set runtime.
package rules.shared_kernel_runtime

import data.lib.sa
import data.lib.workload as wl

shared := {"runc", "crun", "youki", "nvidia", "io.containerd.runc.v1", "io.containerd.runc.v2", "default"}

applies(w) if {
	object.get(w, "source", "") in {"kubernetes", "docker"}
	not w.vm_host
}

# A compose file a devcontainer runs in is a developer's machine, as a
# devcontainer alone is: the kernel a laptop's Docker shares is its own VM.
applies(w) if {
	w.source == "compose"
	not w.file in devcontainer_compose_files
	not w.vm_host
}

# The compose files a devcontainer runs in (worked out once per scan).
devcontainer_compose_files contains d.file if {
	some d in object.get(input, "workloads", [])
	d.source == "compose"
	object.get(d, "devcontainer", "") != ""
}

deny contains f if {
	some w in wl.complete_workloads
	applies(w)
	not w.runtime
	f := sa.finding(
		rego.metadata.chain(), w,
		sprintf("%s uses the default runtime (runc): it shares the host kernel; use gVisor, Kata Containers or Firecracker", [wl.label(w)]),
	)
}

deny contains f if {
	some w in wl.judged_workloads
	applies(w)
	rt := wl.str(w, "runtime")
	rt in shared
	f := sa.finding(
		rego.metadata.chain(), w.runtime,
		sprintf("%s uses runtime %s: it shares the host kernel; use gVisor, Kata Containers or Firecracker", [wl.label(w), rt]),
	)
}
