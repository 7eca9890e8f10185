package rules.github_unpinned_actions_allowed_test

import data.rules.github_unpinned_actions_allowed as r

repo(a) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "actions": a}

wf := [{"name": "a", "file": ".github/workflows/a.yml", "line": 1, "runs_agent": true, "jobs": []}]

test_all_unpinned_fires if {
	fs := r.deny with input as {"workflows": wf, "repository": repo({"allowed_actions": "all"})}
	count(fs) == 1
	some f in fs
	f.severity == "low"
}

test_pinning_required_quiet if {
	count(r.deny) == 0 with input as {"workflows": wf, "repository": repo({"allowed_actions": "all", "sha_pinning_required": true})}
}

test_selected_quiet if {
	count(r.deny) == 0 with input as {"workflows": wf, "repository": repo({"allowed_actions": "selected"})}
}

test_no_agent_quiet if {
	count(r.deny) == 0 with input as {"workflows": [], "repository": repo({"allowed_actions": "all"})}
}
