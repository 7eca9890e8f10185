package rules.egress_unverified_test

import data.rules.egress_unverified

test_unverified_selection_fires if {
	fs := egress_unverified.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "id": "k8s:Pod/a/agent/c", "file": "pod.yaml", "line": 9,
		"egress": {
			"restricted": false, "allow_all": false, "allow": [], "deny": [],
			"by": "CiliumNetworkPolicy a/lockdown", "file": "cnp.yaml", "line": 1,
			"unverified": ["CiliumNetworkPolicy a/lockdown may select the pod: its selector depends on labels the scan does not know"],
		},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "egress-unverified"
	f.severity == "low"
	f.property == "network"
	f.file == "pod.yaml"
	f.line == 9
	contains(f.message, "CiliumNetworkPolicy a/lockdown")
}

test_verified_egress_quiet if {
	count(egress_unverified.deny) == 0 with input as {"workloads": [
		{
			"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
			"egress": {"restricted": true, "allow_all": false, "allow": ["api.github.com on TCP/443"], "deny": [], "unverified": [], "by": "CiliumNetworkPolicy a/agent", "file": "cnp.yaml", "line": 1},
		},
		{"source": "compose", "name": "db", "file": "compose.yaml", "line": 3},
	]}
}

test_firewall_script_not_read_fires_low if {
	fs := egress_unverified.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
		"egress": {
			"restricted": false, "script_unverified": true, "file": ".devcontainer/devcontainer.json", "line": 7,
			"script": {"runs": "/usr/local/bin/init-firewall.sh", "phase": "postStart", "not_read": "not among the files read"},
		},
	}]}
	count(fs) == 1
	some f in fs
	f.severity == "low"
	f.line == 7
	contains(f.message, "devcontainer dev restricts egress only with firewall script /usr/local/bin/init-firewall.sh, run by its postStart command, which is not among the files read")
}

# An entrypoint not read, of an image that holds a firewall script: says so.
test_entrypoint_that_may_run_the_firewall if {
	w := {"source": "devcontainer", "name": "dev", "judged": true, "egress": {
		"restricted": false, "script_unverified": true, "file": ".devcontainer/Dockerfile", "line": 9,
		"script": {"runs": "/usr/local/sbin/box-entrypoint", "phase": "entrypoint", "not_read": "not among the files read", "holds": ".devcontainer/init-firewall.sh"},
	}}
	fs := egress_unverified.deny with input as {"workloads": [w]}
	some f in fs
	contains(f.message, "runs its image's entrypoint /usr/local/sbin/box-entrypoint, which is not among the files read, and the image holds firewall script .devcontainer/init-firewall.sh")
}
