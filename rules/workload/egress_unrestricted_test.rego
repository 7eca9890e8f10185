package rules.egress_unrestricted_test

import data.rules.egress_unrestricted

test_compose_without_egress_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 3,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "egress-unrestricted"
	f.severity == "high"
	f.property == "network"
	f.file == "compose.yaml"
	f.line == 3
	contains(f.message, "internal network")
	contains(f.message, "network_mode: none")
}

test_kubernetes_message_names_networkpolicy if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "id": "k8s:Deployment/a/b/main", "file": "deploy.yaml", "line": 20,
	}]}
	some f in fs
	contains(f.message, "egress NetworkPolicy")
}

test_devcontainer_message_names_network_none if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
		"network_mode": {"value": "bridge", "file": ".devcontainer/devcontainer.json", "line": 5},
	}]}
	some f in fs
	contains(f.message, "--network=none")
}

test_allow_all_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main", "file": "deploy.yaml", "line": 20,
		"egress": {"restricted": true, "allow_all": true, "allow": [], "by": "NetworkPolicy a/allow-all", "file": "netpol.yaml", "line": 4},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 20
	contains(f.message, "NetworkPolicy a/allow-all")
	contains(f.message, "every destination")
}

test_hardened_quiet if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [
		{
			"source": "kubernetes", "name": "main", "file": "deploy.yaml", "line": 20,
			"egress": {"restricted": true, "allow_all": false, "allow": ["10.0.0.5/32:3128"], "by": "NetworkPolicy a/deny-egress", "file": "netpol.yaml", "line": 4},
		},
		{
			"source": "compose", "name": "offline", "file": "compose.yaml", "line": 3,
			"network_mode": {"value": "none", "file": "compose.yaml", "line": 5},
		},
	]}
}

test_empty_input_quiet if {
	count(egress_unrestricted.deny) == 0 with input as {}
}

test_unread_firewall_script_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
		"egress": {
			"restricted": false, "unverified": true, "by": "firewall script /opt/fw.sh (postStartCommand), not read: not among the files read",
			"script": {"runs": "/opt/fw.sh", "phase": "postStart", "not_read": "not among the files read"},
		},
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "runs firewall script /opt/fw.sh, which was not read (not among the files read): nothing shows that egress is denied by default")
}

test_script_restricted_quiet if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"egress": {"restricted": true, "unverified": true, "by": "firewall script .devcontainer/fw.sh (postStartCommand)", "script": {"path": ".devcontainer/fw.sh"}},
	}]}
	count(fs) == 0
}

test_firewall_script_without_root_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 3},
		"egress": {
			"restricted": true, "unverified": true, "by": "firewall script .devcontainer/init-firewall.sh (postCreateCommand)",
			"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postCreate", "sudo": false, "rules": {"sudo": false}},
		},
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "runs firewall script .devcontainer/init-firewall.sh as node without sudo: a non-root user cannot program the packet filter")
}

test_firewall_script_with_sudo_inside_quiet if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 3},
		"egress": {
			"restricted": true, "unverified": true,
			"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postCreate", "sudo": false, "rules": {"sudo": true}},
		},
	}]}
	count(fs) == 0
}
