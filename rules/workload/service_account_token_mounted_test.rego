package rules.service_account_token_mounted_test

import data.rules.service_account_token_mounted

test_token_mounted_fires if {
	fs := service_account_token_mounted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "id": "k8s:Pod/agents/runner/main",
		"service_account_token": {"value": true, "file": "pod.yaml", "line": 6},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "service-account-token-mounted"
	f.severity == "medium"
	f.property == "credentials"
	f.file == "pod.yaml"
	f.line == 6
	contains(f.message, "service account default")
}

test_names_service_account if {
	fs := service_account_token_mounted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "service_account": "agent-runner",
		"service_account_token": {"value": true, "file": "pod.yaml", "line": 6},
	}]}
	some f in fs
	contains(f.message, "service account agent-runner")
}

test_hardened_quiet if {
	count(service_account_token_mounted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"service_account_token": {"value": false, "file": "pod.yaml", "line": 6},
	}]}
}

test_not_kubernetes_quiet if {
	count(service_account_token_mounted.deny) == 0 with input as {"workloads": [{"source": "compose", "name": "agent"}]}
}

test_empty_input_quiet if {
	count(service_account_token_mounted.deny) == 0 with input as {}
}
