package rules.container_runs_as_root_test

import data.rules.container_runs_as_root

test_compose_user_root_fires if {
	fs := container_runs_as_root.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"user": {"value": "root", "file": "compose.yaml", "line": 4},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "container-runs-as-root"
	f.severity == "medium"
	f.file == "compose.yaml"
	f.line == 4
	contains(f.message, "compose service agent runs as root")
}

test_uid_zero_with_group_fires if {
	fs := container_runs_as_root.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"user": {"value": "0:1000", "file": "pod.yaml", "line": 11},
	}]}
	count(fs) == 1
}

test_run_as_non_root_false_without_user_fires if {
	fs := container_runs_as_root.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"run_as_non_root": {"value": false, "file": "pod.yaml", "line": 13},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 13
	contains(f.message, "runAsNonRoot false")
}

test_run_as_non_root_false_with_non_root_user_quiet if {
	count(container_runs_as_root.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"user": {"value": "1000", "file": "pod.yaml", "line": 12},
		"run_as_non_root": {"value": false, "file": "pod.yaml", "line": 13},
	}]}
}

test_hardened_quiet if {
	count(container_runs_as_root.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"user": {"value": "1000:1000", "file": "pod.yaml", "line": 12},
		"run_as_non_root": {"value": true, "file": "pod.yaml", "line": 13},
	}]}
}

test_unset_quiet if {
	count(container_runs_as_root.deny) == 0 with input as {"workloads": [{"source": "compose", "name": "app"}]}
}

test_empty_input_quiet if {
	count(container_runs_as_root.deny) == 0 with input as {}
}

# Pod Security's restricted profile, enforced on the namespace, admits no
# pod that runs as root.
test_psa_restricted_namespace_quiet if {
	w := {"source": "kubernetes", "name": "p/c", "namespace": "team", "user": {"value": "0", "file": "pod.yaml", "line": 12}}
	restricted := {"name": "team", "labels": {"pod-security.kubernetes.io/enforce": "restricted"}}
	count(container_runs_as_root.deny) == 0 with input as {"workloads": [w], "namespaces": [restricted]}
	count(container_runs_as_root.deny) == 1 with input as {"workloads": [w]}
}
