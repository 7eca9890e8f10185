package rules.github_review_stale_approval_test

import data.rules.github_review_stale_approval as r

repo(review) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "review": review}

agent := {"file": ".claude/settings.json", "tool": "claude"}

test_stale_kept_fires if {
	fs := r.deny with input as {"agents": [agent], "repository": repo({"requires_pull_request": true, "approvals": 1, "dismiss_stale": false, "last_push_approval": false})}
	count(fs) == 1
	some f in fs
	f.severity == "medium"
}

test_dismissed_quiet if {
	count(r.deny) == 0 with input as {"agents": [agent], "repository": repo({"requires_pull_request": true, "approvals": 1, "dismiss_stale": true, "last_push_approval": false})}
}

test_last_push_quiet if {
	count(r.deny) == 0 with input as {"agents": [agent], "repository": repo({"requires_pull_request": true, "approvals": 1, "dismiss_stale": false, "last_push_approval": true})}
}

test_no_review_required_is_another_rule if {
	count(r.deny) == 0 with input as {"agents": [agent], "repository": repo({"requires_pull_request": false, "approvals": 0})}
}
