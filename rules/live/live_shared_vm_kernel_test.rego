package rules.live_shared_vm_kernel_test

import data.rules.live_shared_vm_kernel as r

iso(kind, rt, layers) := {"live": {"isolation": {"kind": kind, "runtime": rt, "confidence": "high", "layers": layers, "file": "live/isolation", "line": 1}}}

test_container_inside_vm_fires if {
	fs := r.deny with input as iso("container", "docker", ["firecracker", "container"])
	count(fs) == 1
	some f in fs
	f.rule_id == "live-shared-vm-kernel"
	f.severity == "low"
	f.property == "disposable"
	f.message == "the sandbox is a plain container, container (docker), inside a Firecracker microVM: it shares the VM's kernel with the engine and every other container there"
}

test_container_on_host_quiet if count(r.deny) == 0 with input as iso("container", "docker", ["container"])

test_gvisor_inside_vm_quiet if count(r.deny) == 0 with input as iso("gvisor", "runsc", ["vm", "gvisor"])

test_vm_alone_quiet if count(r.deny) == 0 with input as iso("firecracker", "firecracker", ["firecracker"])
