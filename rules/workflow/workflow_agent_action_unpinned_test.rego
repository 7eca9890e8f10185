package rules.workflow_agent_action_unpinned_test

import data.rules.workflow_agent_action_unpinned

wf := ".github/workflows/claude.yml"

test_tag_fires if {
	fs := workflow_agent_action_unpinned.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [{"uses": "anthropics/claude-code-action@v1", "pinned": false, "file": wf, "line": 15, "inputs": {}}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-action-unpinned"
	f.severity == "medium"
	f.property == "review"
	f.file == wf
	f.line == 15
	contains(f.message, "anthropics/claude-code-action@v1")
}

test_sha_and_local_quiet if {
	count(workflow_agent_action_unpinned.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [
				{"uses": "anthropics/claude-code-action@0123456789abcdef0123456789abcdef01234567", "pinned": true, "file": wf, "line": 15, "inputs": {}},
				{"uses": "./.github/actions/agent", "pinned": false, "file": wf, "line": 25, "inputs": {}},
			],
		}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_action_unpinned.deny) == 0 with input as {}
}
