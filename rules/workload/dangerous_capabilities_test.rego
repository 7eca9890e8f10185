package rules.dangerous_capabilities_test

import data.rules.dangerous_capabilities

test_one_finding_per_dangerous_cap if {
	fs := dangerous_capabilities.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev", "file": ".devcontainer/devcontainer.json", "line": 1,
		"cap_add": [
			{"value": "SYS_ADMIN", "file": ".devcontainer/devcontainer.json", "line": 8},
			{"value": "NET_BIND_SERVICE", "file": ".devcontainer/devcontainer.json", "line": 9},
			{"value": "SYS_PTRACE", "file": ".devcontainer/devcontainer.json", "line": 10},
		],
	}]}
	count(fs) == 2
	some f in fs
	f.rule_id == "dangerous-capabilities"
	f.severity == "high"
	f.file == ".devcontainer/devcontainer.json"
	f.line == 8
	contains(f.message, "SYS_ADMIN")
	some g in fs
	g.line == 10
	contains(g.message, "SYS_PTRACE")
}

test_all_and_prefixed_lowercase if {
	fs := dangerous_capabilities.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"cap_add": [
			{"value": "ALL", "file": "pod.yaml", "line": 14},
			{"value": "cap_net_admin", "file": "pod.yaml", "line": 15},
		],
	}]}
	count(fs) == 2
	some f in fs
	f.line == 15
	contains(f.message, "NET_ADMIN")
}

test_hardened_quiet if {
	count(dangerous_capabilities.deny) == 0 with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"cap_add": [{"value": "NET_BIND_SERVICE", "file": "pod.yaml", "line": 14}],
		"cap_drop": [{"value": "ALL", "file": "pod.yaml", "line": 16}],
	}]}
}

test_dropped_not_added_quiet if {
	count(dangerous_capabilities.deny) == 0 with input as {"workloads": [{
		"name": "app", "cap_add": [],
		"cap_drop": [{"value": "SYS_ADMIN", "file": "compose.yaml", "line": 9}],
	}]}
}

test_empty_input_quiet if {
	count(dangerous_capabilities.deny) == 0 with input as {}
}

fw_egress := {
	"restricted": true, "script_unverified": true,
	"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postStart"},
}

net_admin(extra) := object.union({
	"source": "devcontainer", "name": "dev", "egress": fw_egress,
	"cap_add": [{"value": "NET_ADMIN", "file": ".devcontainer/devcontainer.json", "line": 4}],
}, extra)

# The reference devcontainer: NET_ADMIN for the firewall script, a non-root
# user whose only sudo is that root-owned script.
test_net_admin_for_firewall_script_quiet if {
	w := net_admin({
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 9},
		"sudo": [{"who": "node", "run_as": "(root)", "nopasswd": true, "commands": ["/usr/local/bin/init-firewall.sh"]}],
	})
	fs := dangerous_capabilities.deny with input as {"workloads": [w]}
	count(fs) == 0
}

test_net_admin_for_script_but_sudo_all_fires if {
	w := net_admin({
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 9},
		"sudo": [{"who": "node", "run_as": "(ALL)", "nopasswd": true, "commands": ["ALL"]}],
	})
	fs := dangerous_capabilities.deny with input as {"workloads": [w]}
	count(fs) == 1
}

test_net_admin_for_script_but_user_unknown_fires if {
	fs := dangerous_capabilities.deny with input as {"workloads": [net_admin({})]}
	count(fs) == 1
}

# Services that share the firewall's capabilities through a YAML anchor
# but run no script, or a script that was not read: the non-root user
# without sudo to root holds no capability either way.
test_net_admin_without_script_but_unusable_quiet if {
	w := object.union(net_admin({"user": {"value": "node", "file": "compose.yaml", "line": 9}}), {"egress": null})
	count(dangerous_capabilities.deny) == 0 with input as {"workloads": [w]}
	sys := object.union(w, {"cap_add": [{"value": "SYS_ADMIN", "file": "compose.yaml", "line": 5}]})
	count(dangerous_capabilities.deny) == 1 with input as {"workloads": [sys]}
}

# The agent may rerun the firewall script as root with hosts it writes
# (/tmp): that changes what the script allows, which
# egress-firewall-undoable reports; its own processes still hold no
# NET_ADMIN, so this rule stays quiet.
test_net_admin_script_with_writable_input_quiet if {
	w := net_admin({
		"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 9},
		"egress": object.union(fw_egress, {"script": {
			"path": ".devcontainer/init-firewall.sh", "phase": "postStart", "runs": "/usr/local/bin/init-firewall.sh",
			"rules": {"reads": [{"value": "/tmp/extra-domains", "file": ".devcontainer/init-firewall.sh", "line": 7}]},
		}}),
		"sudo": [{"who": "node", "run_as": "(root)", "nopasswd": true, "commands": ["/usr/local/bin/init-firewall.sh"]}],
	})
	count(dangerous_capabilities.deny) == 0 with input as {"workloads": [w]}
}
