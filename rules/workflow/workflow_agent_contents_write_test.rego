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
