package rules.privileged_container_test

import data.rules.privileged_container

test_compose_privileged_fires if {
	fs := privileged_container.deny with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 3,
		"privileged": {"value": true, "file": "compose.yaml", "line": 6},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "privileged-container"
	f.severity == "critical"
	f.property == "disposable"
	f.file == "compose.yaml"
	f.line == 6
	contains(f.message, "compose service agent")
}

test_kubernetes_label_uses_id if {
	fs := privileged_container.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "id": "k8s:Deployment/agents/runner/main",
		"privileged": {"value": true, "file": "k8s/runner.yaml", "line": 22},
	}]}
	some f in fs
	contains(f.message, "Kubernetes container Deployment/agents/runner/main")
}

test_hardened_quiet if {
	count(privileged_container.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 3,
		"privileged": {"value": false, "file": "compose.yaml", "line": 6},
	}]}
}

test_unset_quiet if {
	count(privileged_container.deny) == 0 with input as {"workloads": [{"source": "devcontainer", "name": "dev"}]}
}

test_empty_input_quiet if {
	count(privileged_container.deny) == 0 with input as {}
}
