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

grants := [
	{"verb": "*", "resource": "pods", "role": "Role/pod-manager", "file": "rbac.yaml", "line": 9},
	{"verb": "*", "resource": "pods/exec", "role": "Role/pod-manager", "file": "rbac.yaml", "line": 9},
	{"verb": "get", "resource": "secrets", "role": "ClusterRole/reader", "file": "rbac.yaml", "line": 20},
]

test_bound_rights_raise_and_name if {
	fs := service_account_token_mounted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "service_account": "runner", "judged": true,
		"service_account_token": {"value": true, "file": "pod.yaml", "line": 6},
		"service_account_grants": grants,
	}]}
	count(fs) == 1
	some f in fs
	f.severity == "high"
	f.file == "pod.yaml"
	contains(f.message, "which may * pods, * pods/exec, get secrets (ClusterRole/reader, Role/pod-manager)")
}

test_bound_rights_on_platform_note if {
	fs := service_account_token_mounted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "manager", "service_account": "runner", "judged": false,
		"role": "platform", "role_reason": "its service account runner may * pods",
		"service_account_token": {"value": true, "file": "pod.yaml", "line": 6},
		"service_account_grants": grants,
	}]}
	count(fs) == 1
	some f in fs
	f.severity == "info"
	f.category == "platform"
}

test_plain_token_on_platform_quiet if {
	count(service_account_token_mounted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "web", "judged": false, "role": "platform",
		"service_account_token": {"value": true, "file": "pod.yaml", "line": 6},
	}]}
}

test_bound_rights_token_off_quiet if {
	count(service_account_token_mounted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "judged": true,
		"service_account_token": {"value": false, "file": "pod.yaml", "line": 6},
		"service_account_grants": grants,
	}]}
}
