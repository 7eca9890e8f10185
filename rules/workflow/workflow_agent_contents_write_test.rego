package rules.workflow_agent_contents_write_test

import data.rules.workflow_agent_contents_write

wf := ".github/workflows/claude.yml"

test_job_contents_write_fires if {
	fs := workflow_agent_contents_write.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"permissions": {"all": "read-all", "scopes": {}, "file": wf, "line": 5},
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"permissions": {"all": "", "scopes": {"contents": "write"}, "file": wf, "line": 11},
			"effective_write": ["contents"],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-contents-write"
	f.severity == "high"
	f.property == "review"
	f.file == wf
	f.line == 11
}

test_inherited_from_workflow_points_there if {
	fs := workflow_agent_contents_write.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"permissions": {"all": "write-all", "scopes": {}, "file": wf, "line": 5},
		"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["contents", "issues"]}],
	}]}
	some f in fs
	f.line == 5
}

test_read_only_quiet if {
	count(workflow_agent_contents_write.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"permissions": {"all": "", "scopes": {"contents": "read", "pull-requests": "write"}, "file": wf, "line": 11},
			"effective_write": ["pull-requests"],
		}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_contents_write.deny) == 0 with input as {}
}

test_reviewed_default_branch_quiet if {
	j := {"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["contents"]}
	repo := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "review": {"requires_pull_request": true, "approvals": 1, "dismiss_stale": true, "bypass": [], "bypass_known": true}, "actions": {"can_approve_pull_requests": false}}
	count(workflow_agent_contents_write.deny) == 0 with input as {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [j]}], "repository": repo}
	count(workflow_agent_contents_write.deny) == 1 with input as {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [j]}], "repository": object.union(repo, {"review": object.union(repo.review, {"bypass_known": false})})}
}

test_actions_settings_unknown_not_reviewed if {
	j := {"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["contents"]}
	repo := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "review": {"requires_pull_request": true, "approvals": 1, "dismiss_stale": true, "bypass": [], "bypass_known": true}}
	count(workflow_agent_contents_write.deny) == 1 with input as {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [j]}], "repository": repo}
}

# copilot-setup-steps: its permissions are the setup steps' token; the
# Copilot coding agent gets a token of its own.
test_copilot_setup_quiet if {
	count(workflow_agent_contents_write.deny) == 0 with input as {"workflows": [{
		"name": "Copilot Setup Steps", "file": ".github/workflows/copilot-setup-steps.yml", "line": 1, "runs_agent": true, "copilot_setup": true,
		"permissions": {"all": "", "scopes": {"contents": "write"}, "file": ".github/workflows/copilot-setup-steps.yml", "line": 5},
		"jobs": [{"id": "copilot-setup-steps", "file": ".github/workflows/copilot-setup-steps.yml", "line": 9, "runs_agent": true, "effective_write": ["contents"]}],
	}]}
}
