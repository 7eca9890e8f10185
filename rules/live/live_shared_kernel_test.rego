package rules.live_shared_kernel_test

import data.rules.live_shared_kernel as r

iso(kind, rt) := {"live": {"isolation": {"kind": kind, "runtime": rt, "confidence": "high", "file": "live/isolation", "line": 1}}}

test_container_fires if {
	some f in r.deny with input as iso("container", "docker")
	f.message == "the sandbox is a plain container, container (docker): it shares the host kernel"
	f.property == "disposable"
}

test_gvisor_quiet if count(r.deny) == 0 with input as iso("gvisor", "runsc")

test_firecracker_quiet if count(r.deny) == 0 with input as iso("firecracker", "firecracker")

# A container in a microVM shares the VM's kernel, not the host's: the
# lower live-shared-vm-kernel says so instead.
test_container_inside_vm_quiet if {
	doc := json.patch(iso("container", "docker"), [{"op": "add", "path": "/live/isolation/layers", "value": ["firecracker", "container"]}])
	count(r.deny) == 0 with input as doc
}
