package rules.workflow_token_default_permissions_test

import data.rules.workflow_token_default_permissions

wf := ".github/workflows/claude.yml"

test_no_permissions_block_fires if {
	fs := workflow_token_default_permissions.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["default"]}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-token-default-permissions"
	f.severity == "medium"
	f.property == "credentials"
	f.file == wf
	f.line == 9
}

test_scoped_permissions_quiet if {
	count(workflow_token_default_permissions.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["pull-requests"],
			"permissions": {"all": "", "scopes": {"contents": "read", "pull-requests": "write"}, "file": wf, "line": 11},
		}],
	}]}
}

test_non_agent_job_quiet if {
	count(workflow_token_default_permissions.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{"id": "lint", "file": wf, "line": 9, "runs_agent": false, "effective_write": ["default"]}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_token_default_permissions.deny) == 0 with input as {}
}

test_copilot_setup_quiet if {
	count(workflow_token_default_permissions.deny) == 0 with input as {"workflows": [{
		"name": "Copilot Setup Steps", "file": ".github/workflows/copilot-setup-steps.yml", "line": 1, "runs_agent": true, "copilot_setup": true,
		"jobs": [{"id": "copilot-setup-steps", "file": ".github/workflows/copilot-setup-steps.yml", "line": 9, "runs_agent": true, "effective_write": ["default"]}],
	}]}
}
