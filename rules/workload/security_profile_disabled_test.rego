package rules.security_profile_disabled_test

import data.rules.security_profile_disabled

test_security_opts_fire if {
	fs := security_profile_disabled.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"security_opt": [
			{"value": "seccomp:unconfined", "file": "compose.yaml", "line": 9},
			{"value": "apparmor=unconfined", "file": "compose.yaml", "line": 10},
			{"value": "label=disable", "file": "compose.yaml", "line": 11},
			{"value": "no-new-privileges:true", "file": "compose.yaml", "line": 12},
		],
	}]}
	count(fs) == 3
	some f in fs
	f.rule_id == "security-profile-disabled"
	f.severity == "medium"
	f.file == "compose.yaml"
	f.line == 9
	contains(f.message, "seccomp")
	some g in fs
	g.line == 10
	contains(g.message, "AppArmor")
}

test_kubernetes_seccomp_unconfined_fires if {
	fs := security_profile_disabled.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"seccomp": {"value": "Unconfined", "file": "pod.yaml", "line": 18},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 18
}

test_same_fact_twice_is_one_finding if {
	fs := security_profile_disabled.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"seccomp": {"value": "unconfined", "file": ".devcontainer/devcontainer.json", "line": 6},
		"security_opt": [{"value": "seccomp=unconfined", "file": ".devcontainer/devcontainer.json", "line": 6}],
	}]}
	count(fs) == 1
}

test_hardened_quiet if {
	count(security_profile_disabled.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"seccomp": {"value": "runtime/default", "file": "pod.yaml", "line": 18},
		"security_opt": [
			{"value": "no-new-privileges", "file": "pod.yaml", "line": 19},
			{"value": "seccomp=profiles/agent.json", "file": "pod.yaml", "line": 20},
		],
	}]}
}

test_empty_input_quiet if {
	count(security_profile_disabled.deny) == 0 with input as {}
}
