package rules.egress_restricted_by_script_test

import data.rules.egress_restricted_by_script

script_egress(restricted, holes) := {
	"restricted": restricted, "script_unverified": true,
	"by": "firewall script .devcontainer/init-firewall.sh (postStartCommand)",
	"allow": ["api.anthropic.com", "registry.npmjs.org"],
	"file": ".devcontainer/devcontainer.json", "line": 12,
	"script": {
		"runs": "/usr/local/bin/init-firewall.sh", "phase": "postStart", "path": ".devcontainer/init-firewall.sh",
		"rules": {"holes": holes},
	},
}

dev(eg) := {"source": "devcontainer", "name": "dev", "egress": eg}

test_script_restricted_reported_low if {
	fs := egress_restricted_by_script.deny with input as {"workloads": [dev(script_egress(true, [
		{"kind": "dns", "text": "udp/53 to any host", "file": ".devcontainer/init-firewall.sh", "line": 30},
		{"kind": "any-host", "text": "tcp/22 to any host", "file": ".devcontainer/init-firewall.sh", "line": 32},
		{"kind": "ipv6", "text": "IPv6 is not filtered", "file": ".devcontainer/init-firewall.sh", "line": 80},
	]))]}
	count(fs) == 1
	some f in fs
	f.rule_id == "egress-restricted-by-script"
	f.severity == "low"
	f.file == ".devcontainer/devcontainer.json"
	f.line == 12
	contains(f.message, "devcontainer dev restricts egress only with firewall script .devcontainer/init-firewall.sh, run by its postStart command")
	contains(f.message, "it allows api.anthropic.com, registry.npmjs.org; also IPv6 is not filtered; udp/53 to any host")
	not contains(f.message, "tcp/22")
}

test_enforced_control_quiet if {
	fs := egress_restricted_by_script.deny with input as {"workloads": [dev({"restricted": true, "by": "runArgs --network=none"})]}
	count(fs) == 0
}

# A script whose policy stays ACCEPT is egress-unrestricted's.
test_script_not_restricting_quiet if {
	fs := egress_restricted_by_script.deny with input as {"workloads": [dev(script_egress(false, []))]}
	count(fs) == 0
}

test_unread_script_quiet if {
	eg := {"restricted": false, "script_unverified": true, "by": "firewall script /opt/fw.sh (postStartCommand), not read", "script": {"runs": "/opt/fw.sh", "not_read": "not among the files read"}}
	fs := egress_restricted_by_script.deny with input as {"workloads": [dev(eg)]}
	count(fs) == 0
}

test_script_run_without_root_left_to_egress_unrestricted if {
	eg := object.union(script_egress(true, []), {"script": {"path": ".devcontainer/init-firewall.sh", "phase": "postCreate", "sudo": false, "rules": {"sudo": false, "holes": []}}})
	w := object.union(dev(eg), {"user": {"value": "node", "file": ".devcontainer/devcontainer.json", "line": 3}})
	fs := egress_restricted_by_script.deny with input as {"workloads": [w]}
	count(fs) == 0
}

# A devcontainer running in a compose service both read: one container,
# judged once, as the service (which the scan gave the script's egress).
test_compose_devcontainer_judged_once_as_its_service if {
	eg := script_egress(true, [])
	d := object.union(dev(eg), {"compose": {"files": ["compose.yml"], "service": "app", "resolved": true}})
	s := {"source": "compose", "name": "app", "id": "compose:compose.yml:app", "devcontainer": ".devcontainer/devcontainer.json", "egress": eg}
	fs := egress_restricted_by_script.deny with input as {"workloads": [d, s]}
	count(fs) == 1
	some f in fs
	contains(f.message, "compose service app restricts egress only with firewall script")
}
