package rules.host_namespace_shared_test

import data.rules.host_namespace_shared

test_host_pid_and_ipc_fire if {
	fs := host_namespace_shared.deny with input as {"workloads": [{
		"source": "kubernetes", "id": "k8s:Pod/default/agent/main", "name": "main",
		"host_pid": {"value": true, "file": "pod.yaml", "line": 7},
		"host_ipc": {"value": true, "file": "pod.yaml", "line": 8},
	}]}
	count(fs) == 2
	some f in fs
	f.rule_id == "host-namespace-shared"
	f.severity == "high"
	f.file == "pod.yaml"
	f.line == 7
	contains(f.message, "PID")
	some g in fs
	g.line == 8
	contains(g.message, "IPC")
}

test_hardened_quiet if {
	count(host_namespace_shared.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"host_pid": {"value": false, "file": "pod.yaml", "line": 7},
		"host_ipc": {"value": false, "file": "pod.yaml", "line": 8},
	}]}
}

test_unset_quiet if {
	count(host_namespace_shared.deny) == 0 with input as {"workloads": [{"source": "compose", "name": "app"}]}
}

test_empty_input_quiet if {
	count(host_namespace_shared.deny) == 0 with input as {}
}
