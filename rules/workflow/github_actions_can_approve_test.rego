package rules.github_actions_can_approve_test

import data.rules.github_actions_can_approve as r

repo(actions) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "actions": actions}

test_on_fires if {
	fs := r.deny with input as {"repository": repo({"default_permissions": "read", "can_approve_pull_requests": true})}
	count(fs) == 1
	some f in fs
	f.severity == "high"
	f.property == "review"
}

test_off_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"default_permissions": "read", "can_approve_pull_requests": false})}
}

test_unknown_quiet if {
	count(r.deny) == 0 with input as {"repository": {"owner": "o", "name": "r", "file": "github/o/r", "line": 1}}
}
