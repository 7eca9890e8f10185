package rules.restart_always_test

import data.rules.restart_always

test_compose_always_fires if {
	fs := restart_always.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"restart": {"value": "unless-stopped", "file": "compose.yaml", "line": 7},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "restart-always"
	f.severity == "low"
	f.file == "compose.yaml"
	f.line == 7
	contains(f.message, "unless-stopped")
}

test_hardened_quiet if {
	count(restart_always.deny) == 0 with input as {"workloads": [
		{"source": "compose", "name": "agent", "restart": {"value": "no", "file": "compose.yaml", "line": 7}},
		{"source": "compose", "name": "job", "restart": {"value": "on-failure:3", "file": "compose.yaml", "line": 17}},
	]}
}

test_kubernetes_quiet if {
	count(restart_always.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"restart": {"value": "Always", "file": "deploy.yaml", "line": 30},
	}]}
}

test_empty_input_quiet if {
	count(restart_always.deny) == 0 with input as {}
}

# A runner of microVMs is a long-lived service by design: quiet.
test_vm_host_quiet if {
	w := {"source": "compose", "name": "runner", "restart": {"value": "always", "file": "c.yml", "line": 4}}
	count(restart_always.deny) == 1 with input as {"workloads": [w]}
	count(restart_always.deny) == 0 with input as {"workloads": [object.union(w, {"vm_host": {"value": "device /dev/kvm", "file": "c.yml", "line": 6}})]}
}
