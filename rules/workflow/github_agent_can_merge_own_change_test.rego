package rules.github_agent_can_merge_own_change_test

import data.rules.github_agent_can_merge_own_change as r

wf := ".github/workflows/claude.yml"

job(write) := {"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": write, "permissions": {"all": "", "scopes": {"contents": "write"}, "file": wf, "line": 11}}

repo(review, actions) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "review": review, "actions": actions}

strong := {"requires_pull_request": true, "approvals": 1, "dismiss_stale": true, "code_owner_review": false, "last_push_approval": false, "bypass": [], "bypass_known": true}

input_of(write, review, actions) := {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [job(write)]}], "repository": repo(review, actions)}

test_unprotected_branch_fires if {
	fs := r.deny with input as input_of(["contents"], {"requires_pull_request": false, "approvals": 0, "bypass": [], "bypass_known": true}, {"default_permissions": "read"})
	count(fs) == 1
	some f in fs
	f.rule_id == "github-agent-can-merge-own-change"
	f.severity == "critical"
	f.file == wf
	f.line == 11
	contains(f.message, "it requires no pull request")
}

test_actions_bypass_fires if {
	fs := r.deny with input as input_of(["contents"], object.union(strong, {"bypass": ["Integration 15368"]}), {"default_permissions": "read"})
	some f in fs
	contains(f.message, "GitHub Actions may bypass its rules")
}

test_one_approval_actions_can_give_fires if {
	fs := r.deny with input as input_of(["contents"], strong, {"default_permissions": "read", "can_approve_pull_requests": true})
	some f in fs
	contains(f.message, "may come from a workflow's token")
}

test_write_default_counts if {
	count(r.deny) == 1 with input as input_of(["default"], {"requires_pull_request": false, "approvals": 0, "bypass": []}, {"default_permissions": "write"})
}

test_read_default_quiet if {
	count(r.deny) == 0 with input as input_of(["default"], {"requires_pull_request": false, "approvals": 0, "bypass": []}, {"default_permissions": "read"})
}

test_protected_quiet if {
	count(r.deny) == 0 with input as input_of(["contents"], strong, {"default_permissions": "read", "can_approve_pull_requests": false})
}

test_review_unknown_quiet if {
	count(r.deny) == 0 with input as {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [job(["contents"])]}], "repository": {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1}}
}

test_no_repository_quiet if {
	count(r.deny) == 0 with input as {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [job(["contents"])]}]}
}
