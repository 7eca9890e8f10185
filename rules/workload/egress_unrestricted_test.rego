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

# A database beside the agent is not the agent's sandbox: its egress is not
# judged, while the agent's is.
test_not_judged_workload_quiet if {
	fs := egress_unrestricted.deny with input as {"workloads": [
		{"id": "compose:c.yml:db", "name": "db", "source": "compose", "judged": false, "role": "platform", "file": "c.yml", "line": 5},
		{"id": "compose:c.yml:agent", "name": "agent", "source": "compose", "judged": true, "role": "agent", "file": "c.yml", "line": 2},
	]}
	count(fs) == 1
	some f in fs
	f.line == 2
}

# A compose-based devcontainer's network is the compose service's.
test_compose_based_devcontainer_defers_to_its_service if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [{
		"source": "devcontainer", "name": "app", "file": ".devcontainer/devcontainer.json", "line": 1,
		"compose": {"files": ["docker-compose.yml"], "service": "app"},
	}]}
}

# A policy that may not select the pod is egress-unverified's finding, not
# a declared lack of restriction.
test_unverified_only_left_to_egress_unverified if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"egress": {"restricted": false, "allow_all": false, "allow": [], "deny": [], "by": "CalicoGlobalNetworkPolicy lockdown", "file": "gnp.yaml", "line": 1, "unverified": ["CalicoGlobalNetworkPolicy lockdown may select the pod"]},
	}]}
}

# Verified and allowing everything still fires, whatever else is unverified.
test_allow_all_with_unverified_notes_fires if {
	count(egress_unrestricted.deny) == 1 with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"egress": {"restricted": true, "allow_all": true, "allow": ["entity world (every destination outside the cluster)"], "deny": [], "by": "CiliumNetworkPolicy a/open", "file": "cnp.yaml", "line": 1, "unverified": ["CalicoNetworkPolicy a/x: in tier t"]},
	}]}
}

test_agent_sandbox_template_default_names_the_template if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "py/runtime", "id": "k8s:SandboxTemplate/a/py/runtime", "file": "tmpl.yaml", "line": 9,
		"egress": {"restricted": true, "allow_all": true, "allow": ["the public internet"], "deny": [], "unverified": [], "by": "agent-sandbox NetworkPolicy a/py-network-policy (SandboxTemplate py)", "file": "tmpl.yaml", "line": 1},
	}]}
	some f in fs
	contains(f.message, "spec.networkPolicy.egress in the SandboxTemplate")
}

test_every_destination_on_https_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"egress": {"restricted": true, "allow_all": false, "allow": ["entity world on TCP/443"], "open_ports": ["TCP/443", "UDP/53"], "deny": [], "unverified": [], "by": "CiliumNetworkPolicy a/web", "file": "cnp.yaml", "line": 1},
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "every destination on TCP/443")
	not contains(f.message, "UDP/53")
}

test_port_range_over_https_fires if {
	count(egress_unrestricted.deny) == 1 with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"egress": {"restricted": true, "allow_all": false, "allow": ["any destination on TCP/1-65535"], "open_ports": ["TCP/1-65535"], "by": "NetworkPolicy a/np", "file": "np.yaml", "line": 1},
	}]}
}

# DNS to any resolver, or a database port anywhere, is a named exception.
test_every_destination_on_dns_only_quiet if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"egress": {"restricted": true, "allow_all": false, "allow": ["any destination on UDP/53", "any destination on TCP/5432-5433"], "open_ports": ["UDP/53", "TCP/5432-5433"], "by": "NetworkPolicy a/np", "file": "np.yaml", "line": 1},
	}]}
}

# host-network reports a workload on the host's stack; no second finding.
test_host_network_left_to_host_network if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "agent", "file": "pod.yaml", "line": 9,
		"host_network": {"value": true, "file": "pod.yaml", "line": 12},
	}]}
}

# A firewall script the scan did not read is egress-unverified's (the
# network property is unknown); one read that programs no packet filter is
# positive evidence and fires.
unread_script(reason) := {"workloads": [{
	"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
	"egress": {
		"restricted": false, "script_unverified": true, "by": sprintf("firewall script /opt/fw.sh (postStartCommand), not read: %s", [reason]),
		"script": {"runs": "/opt/fw.sh", "phase": "postStart", "not_read": reason},
	},
}]}

test_unread_firewall_script_left_to_egress_unverified if {
	count(egress_unrestricted.deny) == 0 with input as unread_script("not among the files read")
}

test_firewall_script_without_filter_fires if {
	fs := egress_unrestricted.deny with input as unread_script("it programs no packet filter")
	count(fs) == 1
	some f in fs
	contains(f.message, "runs firewall script /opt/fw.sh, which programs no packet filter: nothing shows that egress is denied by default")
}

test_script_restricted_quiet if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"egress": {"restricted": true, "script_unverified": true, "by": "firewall script .devcontainer/fw.sh (postStartCommand)", "script": {"path": ".devcontainer/fw.sh"}},
	}]}
	count(fs) == 0
}

test_firewall_script_without_root_fires if {
	fs := egress_unrestricted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 3},
		"egress": {
			"restricted": true, "script_unverified": true, "by": "firewall script .devcontainer/init-firewall.sh (postCreateCommand)",
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
			"restricted": true, "script_unverified": true,
			"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postCreate", "sudo": false, "rules": {"sudo": true}},
		},
	}]}
	count(fs) == 0
}

# A compose override's fragment (no image, build or extends) says nothing of
# the networks of the service it adds to: the base file's service is judged.
test_overlay_fragment_quiet if {
	count(egress_unrestricted.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.claude.yml", "line": 3, "overlay": true,
	}]}
}
