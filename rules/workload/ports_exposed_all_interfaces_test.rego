package rules.ports_exposed_all_interfaces_test

import data.rules.ports_exposed_all_interfaces

test_compose_unbound_ports_fire if {
	fs := ports_exposed_all_interfaces.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"ports": [
			{"value": "8080:8080", "file": "compose.yaml", "line": 10},
			{"value": "3000", "file": "compose.yaml", "line": 11},
			{"value": "0.0.0.0:9229:9229/tcp", "file": "compose.yaml", "line": 12},
		],
	}]}
	count(fs) == 3
	some f in fs
	f.rule_id == "ports-exposed-all-interfaces"
	f.severity == "low"
	f.property == "network"
	f.file == "compose.yaml"
	f.line == 10
	f.message == "compose service agent publishes port 8080:8080 on all host interfaces"
	some g in fs
	g.line == 12
	contains(g.message, "on 0.0.0.0, not loopback")
}

test_kubernetes_host_port_fires if {
	fs := ports_exposed_all_interfaces.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"ports": [{"value": "8080:80", "file": "pod.yaml", "line": 21}],
	}]}
	count(fs) == 1
}

test_loopback_quiet if {
	count(ports_exposed_all_interfaces.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"ports": [
			{"value": "127.0.0.1:8080:8080", "file": "compose.yaml", "line": 10},
			{"value": "[::1]:8080:8080", "file": "compose.yaml", "line": 11},
			{"value": "127.0.0.1::5432/udp", "file": "compose.yaml", "line": 12},
			{"value": "${BIND_ADDR}:80:80", "file": "compose.yaml", "line": 13},
		],
	}]}
}

test_devcontainer_forward_ports_quiet if {
	count(ports_exposed_all_interfaces.deny) == 0 with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"ports": [{"value": "3000", "file": ".devcontainer/devcontainer.json", "line": 9}],
	}]}
}

test_empty_input_quiet if {
	count(ports_exposed_all_interfaces.deny) == 0 with input as {}
}
