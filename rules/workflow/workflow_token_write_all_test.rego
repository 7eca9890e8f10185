package rules.workflow_token_write_all_test

import data.rules.workflow_token_write_all

wf := ".github/workflows/claude.yml"

test_workflow_write_all_inherited_fires if {
	fs := workflow_token_write_all.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "copilot_setup": false,
		"permissions": {"all": "write-all", "scopes": {}, "file": wf, "line": 6},
		"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["actions", "contents"]}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-token-write-all"
	f.severity == "high"
	f.property == "credentials"
	f.file == wf
	f.line == 6
}

test_job_write_all_fires if {
	fs := workflow_token_write_all.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"permissions": {"all": "write-all", "scopes": {}, "file": wf, "line": 11},
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 11
	contains(f.message, `job "claude"`)
}

test_job_override_quiet if {
	count(workflow_token_write_all.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"permissions": {"all": "write-all", "scopes": {}, "file": wf, "line": 6},
		"jobs": [
			{
				"id": "claude", "file": wf, "line": 9, "runs_agent": true,
				"permissions": {"all": "", "scopes": {"contents": "read", "pull-requests": "write"}, "file": wf, "line": 11},
			},
			{"id": "deploy", "file": wf, "line": 20, "runs_agent": false},
		],
	}]}
}

test_hardened_quiet if {
	count(workflow_token_write_all.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"permissions": {"all": "read-all", "scopes": {}, "file": wf, "line": 6},
		"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_token_write_all.deny) == 0 with input as {}
}
