package rules.workflow_agent_state_restored_test

import data.rules.workflow_agent_state_restored

wf := ".github/workflows/review.yml"

doc(restores, runs_agent) := {"workflows": [{
	"name": "Review", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{"id": "review", "file": wf, "line": 8, "runs_agent": runs_agent, "state_restores": restores}],
}]}

test_cached_session_fires if {
	fs := workflow_agent_state_restored.deny with input as doc([{"value": "actions/cache@v4 restores ~/.claude/projects", "file": wf, "line": 20}], true)
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-state-restored"
	f.severity == "medium"
	f.property == "disposable"
	f.line == 20
	contains(f.message, "~/.claude/projects")
}

test_no_restore_or_no_agent_quiet if {
	count(workflow_agent_state_restored.deny) == 0 with input as doc([], true)
	count(workflow_agent_state_restored.deny) == 0 with input as doc([{"value": "actions/cache@v4 restores ~/.claude", "file": wf, "line": 20}], false)
}

test_empty_input_quiet if {
	count(workflow_agent_state_restored.deny) == 0 with input as {}
}
