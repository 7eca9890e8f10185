package rules.github_copilot_firewall_off_test

import data.rules.github_copilot_firewall_off as r

repo(c) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "copilot": c}

test_off_fires if {
	fs := r.deny with input as {"repository": repo({"firewall_enabled": false, "allow_list": []})}
	count(fs) == 1
	some f in fs
	f.property == "network"
}

test_on_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"firewall_enabled": true, "allow_list": ["registry.npmjs.org"]})}
}

test_no_environment_quiet if {
	count(r.deny) == 0 with input as {"repository": {"owner": "o", "name": "r", "file": "github/o/r", "line": 1}}
}
