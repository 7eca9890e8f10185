package rules.privilege_escalation_allowed_test

import data.rules.privilege_escalation_allowed

test_kubernetes_unset_fires if {
	fs := privilege_escalation_allowed.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "id": "k8s:Job/ci/agent/main", "file": "job.yaml", "line": 17,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "privilege-escalation-allowed"
	f.severity == "low"
	f.file == "job.yaml"
	f.line == 17
	contains(f.message, "Job/ci/agent/main")
}

test_explicit_true_fires_anywhere if {
	fs := privilege_escalation_allowed.deny with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 2,
		"allow_privilege_escalation": {"value": true, "file": "compose.yaml", "line": 9},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 9
}

test_kubernetes_hardened_quiet if {
	count(privilege_escalation_allowed.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "file": "job.yaml", "line": 17,
		"allow_privilege_escalation": {"value": false, "file": "job.yaml", "line": 25},
	}]}
}

test_no_new_privileges_quiet if {
	count(privilege_escalation_allowed.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "file": "job.yaml", "line": 17,
		"security_opt": [{"value": "no-new-privileges:true", "file": "job.yaml", "line": 30}],
	}]}
}

test_compose_unset_quiet if {
	count(privilege_escalation_allowed.deny) == 0 with input as {"workloads": [{"source": "compose", "name": "agent", "file": "compose.yaml", "line": 2}]}
}

test_empty_input_quiet if {
	count(privilege_escalation_allowed.deny) == 0 with input as {}
}

test_privileged_container_left_to_privileged_container if {
	count(privilege_escalation_allowed.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "dind", "file": "pod.yaml", "line": 4,
		"privileged": {"value": true, "file": "pod.yaml", "line": 9},
	}]}
}

# A namespace of the scan that enforces Pod Security's restricted profile
# admits no pod that leaves allowPrivilegeEscalation unset; baseline does.
psa_ns(level) := {"name": "team", "labels": {"pod-security.kubernetes.io/enforce": level}}

test_psa_restricted_namespace_quiet if {
	w := {"source": "kubernetes", "name": "main", "id": "k8s:Pod/team/p/main", "namespace": "team", "file": "pod.yaml", "line": 9}
	count(privilege_escalation_allowed.deny) == 0 with input as {"workloads": [w], "namespaces": [psa_ns("restricted")]}
	count(privilege_escalation_allowed.deny) == 1 with input as {"workloads": [w], "namespaces": [psa_ns("baseline")]}
	count(privilege_escalation_allowed.deny) == 1 with input as {"workloads": [object.union(w, {"namespace": "other"})], "namespaces": [psa_ns("restricted")]}
}
