package rules.host_network_test

import data.rules.host_network

test_compose_network_mode_host_fires if {
	fs := host_network.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"network_mode": {"value": "host", "file": "compose.yaml", "line": 5},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "host-network"
	f.severity == "high"
	f.property == "network"
	f.file == "compose.yaml"
	f.line == 5
}

test_kubernetes_host_network_fires if {
	fs := host_network.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"host_network": {"value": true, "file": "deploy.yaml", "line": 12},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 12
}

test_hardened_quiet if {
	count(host_network.deny) == 0 with input as {"workloads": [
		{
			"source": "compose", "name": "agent",
			"network_mode": {"value": "none", "file": "compose.yaml", "line": 5},
		},
		{
			"source": "kubernetes", "name": "main",
			"host_network": {"value": false, "file": "deploy.yaml", "line": 12},
		},
	]}
}

test_unset_quiet if {
	count(host_network.deny) == 0 with input as {"workloads": [{"source": "devcontainer", "name": "dev"}]}
}

test_empty_input_quiet if {
	count(host_network.deny) == 0 with input as {}
}
