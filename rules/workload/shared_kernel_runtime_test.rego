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
