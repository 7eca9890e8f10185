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

app(slug, id, selection, contents) := {"slug": slug, "app_id": id, "agent": "claude-code", "repositories": selection, "permissions": {"contents": contents, "pull_requests": "write"}, "suspended": false, "own_branches_only": false}

# pushes_only: an app that can push contents but not open pull requests.
pushes_only(slug, id) := object.union(app(slug, id, "all", "write"), {"permissions": {"contents": "write", "pull_requests": "read"}})

with_apps(review, actions, apps) := {"repository": object.union(repo(review, actions), {"agent_apps": apps})}

test_agent_app_on_unprotected_branch_fires if {
	fs := r.deny with input as with_apps({"requires_pull_request": false, "approvals": 0, "bypass": [], "bypass_known": true}, {"default_permissions": "read"}, [app("claude", 1236702, "all", "write")])
	count(fs) == 1
	some f in fs
	f.file == "github/o/r"
	contains(f.message, `the claude-code app "claude" (app 1236702) is installed on every repository of o with contents: write`)
	contains(f.message, "it requires no pull request")
}

test_agent_app_bypass_actor_fires if {
	fs := r.deny with input as with_apps(object.union(strong, {"bypass": ["Integration 1236702"]}), {"default_permissions": "read", "can_approve_pull_requests": false}, [app("claude", 1236702, "all", "write")])
	count(fs) == 1
	some f in fs
	contains(f.message, "the app may bypass its rules")
}

test_agent_app_classic_bypass_fires if {
	fs := r.deny with input as with_apps(object.union(strong, {"bypass": ["App claude"]}), {"default_permissions": "read", "can_approve_pull_requests": false}, [app("claude", 7, "all", "write")])
	count(fs) == 1
}

test_agent_app_reviewed_branch_quiet if {
	count(r.deny) == 0 with input as with_apps(strong, {"default_permissions": "read", "can_approve_pull_requests": false}, [app("claude", 1236702, "all", "write")])
}

test_agent_app_read_only_quiet if {
	count(r.deny) == 0 with input as with_apps({"requires_pull_request": false, "approvals": 0, "bypass": [], "bypass_known": true}, {"default_permissions": "read"}, [app("claude", 1, "all", "read")])
}

test_agent_app_selected_or_suspended_or_own_branches_quiet if {
	open := {"requires_pull_request": false, "approvals": 0, "bypass": [], "bypass_known": true}
	count(r.deny) == 0 with input as with_apps(open, {"default_permissions": "read"}, [app("claude", 1, "selected", "write")])
	count(r.deny) == 0 with input as with_apps(open, {"default_permissions": "read"}, [object.union(app("claude", 1, "all", "write"), {"suspended": true})])
	count(r.deny) == 0 with input as with_apps(open, {"default_permissions": "read"}, [object.union(app("copilot-swe-agent", 2, "all", "write"), {"own_branches_only": true})])
}

test_agent_app_message_names_its_write_permissions if {
	fs := r.deny with input as with_apps({"requires_pull_request": false, "approvals": 0, "bypass": [], "bypass_known": true}, {"default_permissions": "read"}, [pushes_only("cursor", 9)])
	count(fs) == 1
	some f in fs
	contains(f.message, "with contents: write, and the default branch")
	contains(f.message, "it requires no pull request")
}

# A pull request that needs no approval, or one a workflow may approve, is
# a way in for an app only when it can open and merge one.
test_agent_app_without_pull_requests_write_quiet_where_a_pull_request_is_needed if {
	no_approval := object.union(strong, {"approvals": 0})
	count(r.deny) == 0 with input as with_apps(no_approval, {"default_permissions": "read", "can_approve_pull_requests": false}, [pushes_only("cursor", 9)])
	count(r.deny) == 0 with input as with_apps(strong, {"default_permissions": "read", "can_approve_pull_requests": true}, [pushes_only("cursor", 9)])
	count(r.deny) == 1 with input as with_apps(no_approval, {"default_permissions": "read", "can_approve_pull_requests": false}, [app("claude", 1, "all", "write")])
	count(r.deny) == 1 with input as with_apps(strong, {"default_permissions": "read", "can_approve_pull_requests": true}, [app("claude", 1, "all", "write")])
}

# Pushing past the rules needs contents write alone.
test_agent_app_without_pull_requests_write_bypass_fires if {
	fs := r.deny with input as with_apps(object.union(strong, {"bypass": ["Integration 9"]}), {"default_permissions": "read", "can_approve_pull_requests": false}, [pushes_only("cursor", 9)])
	count(fs) == 1
	some f in fs
	contains(f.message, "the app may bypass its rules")
}
