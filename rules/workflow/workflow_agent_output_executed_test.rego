package rules.workflow_agent_output_executed_test

import data.rules.workflow_agent_output_executed as r

wf := ".github/workflows/review.yml"

doc(injections) := {"workflows": [{
	"name": "Review", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{"id": "post", "file": wf, "line": 30, "runs_agent": false, "injections": injections}],
}]}

test_agent_output_in_script_fires_in_any_job if {
	fs := r.deny with input as doc([{"expr": "needs.review.outputs.message", "source": "agent", "file": wf, "line": 41}])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-output-executed"
	f.property == "review"
	f.severity == "medium"
	f.line == 41
	contains(f.message, `job "post" expands ${{ needs.review.outputs.message }}, the agent's output, into a script`)
}

test_outsider_text_left_to_its_rule if {
	count(r.deny) == 0 with input as doc([{"expr": "github.event.issue.body", "source": "untrusted", "file": wf, "line": 41}])
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
