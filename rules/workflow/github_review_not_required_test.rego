package rules.github_review_not_required_test

import data.rules.github_review_not_required as r

repo(review) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "review": review}

agent := {"file": ".claude/settings.json", "tool": "claude", "scope": "project"}

test_agent_and_no_review_fires if {
	fs := r.deny with input as {"agents": [agent], "repository": repo({"requires_pull_request": true, "approvals": 0, "bypass": []})}
	count(fs) == 1
	some f in fs
	f.severity == "high"
	f.file == "github/o/r"
	contains(f.message, "needs no approving review")
}

test_no_agent_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"requires_pull_request": false, "approvals": 0, "bypass": []})}
}

test_reviewed_quiet if {
	count(r.deny) == 0 with input as {"agents": [agent], "repository": repo({"requires_pull_request": true, "approvals": 2, "bypass": []})}
}

test_unknown_quiet if {
	count(r.deny) == 0 with input as {"agents": [agent], "repository": {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1}}
}

test_agent_writer_reported_by_the_other_rule if {
	wf := ".github/workflows/a.yml"
	count(r.deny) == 0 with input as {
		"workflows": [{"name": "a", "file": wf, "line": 1, "runs_agent": true, "jobs": [{"id": "a", "file": wf, "line": 3, "runs_agent": true, "effective_write": ["contents"]}]}],
		"repository": repo({"requires_pull_request": false, "approvals": 0, "bypass": []}),
	}
}

app(contents) := {"slug": "claude", "app_id": 9, "agent": "claude-code", "repositories": "all", "permissions": {"contents": contents}, "suspended": false, "own_branches_only": false}

test_agent_app_is_an_agent if {
	fs := r.deny with input as {"repository": object.union(repo({"requires_pull_request": false, "approvals": 0, "bypass": []}), {"agent_apps": [app("read")]})}
	count(fs) == 1
}

test_agent_app_writer_reported_by_the_other_rule if {
	count(r.deny) == 0 with input as {"repository": object.union(repo({"requires_pull_request": false, "approvals": 0, "bypass": []}), {"agent_apps": [app("write")]})}
}

# An app that can push but not open a pull request cannot use a pull
# request that needs no approval: no writer reports the gap, this rule does.
test_agent_app_that_cannot_take_the_gap_leaves_it_here if {
	pusher := object.union(app("write"), {"permissions": {"contents": "write", "pull_requests": "read"}})
	fs := r.deny with input as {"repository": object.union(repo({"requires_pull_request": true, "approvals": 0, "bypass": []}), {"agent_apps": [pusher]})}
	count(fs) == 1
}
