package rules.shared_kernel_runtime_test

import data.rules.shared_kernel_runtime

test_kubernetes_default_runtime_fires if {
	fs := shared_kernel_runtime.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "file": "deploy.yaml", "line": 18,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "shared-kernel-runtime"
	f.severity == "low"
	f.file == "deploy.yaml"
	f.line == 18
	contains(f.message, "gVisor")
}

test_compose_runc_fires_at_runtime_line if {
	fs := shared_kernel_runtime.deny with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 3,
		"runtime": {"value": "runc", "file": "compose.yaml", "line": 6},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 6
}

test_isolating_runtimes_quiet if {
	count(shared_kernel_runtime.deny) == 0 with input as {"workloads": [
		{"source": "kubernetes", "name": "a", "runtime": {"value": "gvisor", "file": "a.yaml", "line": 5}},
		{"source": "kubernetes", "name": "b", "runtime": {"value": "kata", "file": "b.yaml", "line": 5}},
		{"source": "kubernetes", "name": "c", "runtime": {"value": "firecracker", "file": "c.yaml", "line": 5}},
		{"source": "compose", "name": "d", "runtime": {"value": "sysbox", "file": "compose.yaml", "line": 5}},
	]}
}

test_devcontainer_not_judged if {
	count(shared_kernel_runtime.deny) == 0 with input as {"workloads": [{"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1}]}
}

test_empty_input_quiet if {
	count(shared_kernel_runtime.deny) == 0 with input as {}
}

# The services of a compose file a devcontainer runs in are a developer's
# machine, as the devcontainer is; another compose file is judged.
test_devcontainer_compose_quiet if {
	ws := [
		{"id": "a", "source": "compose", "name": "dev", "file": ".devcontainer/compose.yaml", "line": 3, "judged": true, "role": "agent", "devcontainer": ".devcontainer/devcontainer.json"},
		{"id": "b", "source": "compose", "name": "agent2", "file": ".devcontainer/compose.yaml", "line": 20, "judged": true, "role": "agent"},
		{"id": "c", "source": "compose", "name": "sandbox", "file": "deploy/compose.yaml", "line": 3, "judged": true, "role": "agent"},
	]
	fs := shared_kernel_runtime.deny with input as {"workloads": ws}
	count(fs) == 1
	some f in fs
	f.file == "deploy/compose.yaml"
}

# A compose override's fragment that sets no runtime leaves the base
# service's in place; one that sets runc still fires.
test_overlay_fragment_without_runtime_quiet if {
	count(shared_kernel_runtime.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.claude.yml", "line": 3, "overlay": true,
	}]}
	count(shared_kernel_runtime.deny) == 1 with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.claude.yml", "line": 3, "overlay": true,
		"runtime": {"value": "runc", "file": "compose.claude.yml", "line": 4},
	}]}
}

# A runner given /dev/kvm runs the code in its microVMs: quiet, in compose
# and Kubernetes alike. The same service without the device fires.
test_vm_host_quiet if {
	vm := {"value": "device /dev/kvm", "file": "compose.yaml", "line": 9}
	count(shared_kernel_runtime.deny) == 0 with input as {"workloads": [
		{"source": "compose", "name": "runner", "file": "compose.yaml", "line": 3, "vm_host": vm},
		{"source": "kubernetes", "name": "runner", "file": "k.yaml", "line": 3, "vm_host": vm},
	]}
	count(shared_kernel_runtime.deny) == 1 with input as {"workloads": [
		{"source": "compose", "name": "runner", "file": "compose.yaml", "line": 3},
	]}
}
