package rules.workflow_agent_full_output_logged_test

import data.rules.workflow_agent_full_output_logged

wf := ".github/workflows/claude.yml"

doc(tool, value) := {"workflows": [{
	"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "claude", "file": wf, "line": 9, "runs_agent": true,
		"agent_steps": [{
			"uses": "anthropics/claude-code-action@v1", "tool": tool, "pinned": false, "file": wf, "line": 15,
			"inputs": {"show_full_output": {"value": value, "file": wf, "line": 19}},
		}],
	}],
}]}

test_full_output_fires if {
	fs := workflow_agent_full_output_logged.deny with input as doc("claude-code", "True")
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-full-output-logged"
	f.property == "credentials"
	f.severity == "medium"
	f.line == 19
	contains(f.message, `job "claude"`)
}

test_false_quiet if {
	count(workflow_agent_full_output_logged.deny) == 0 with input as doc("claude-code", "false")
}

# enabled by an expression (private repositories only, a debug input): the
# scan cannot tell when it is true
test_expression_quiet if {
	count(workflow_agent_full_output_logged.deny) == 0 with input as doc("claude-code", "${{ github.event.repository.private }}")
}

# another agent's action with an input of that name means something else
test_other_agent_quiet if {
	count(workflow_agent_full_output_logged.deny) == 0 with input as doc("codex", "true")
}

test_empty_input_quiet if {
	count(workflow_agent_full_output_logged.deny) == 0 with input as {}
}
