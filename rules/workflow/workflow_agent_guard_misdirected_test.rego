package rules.workflow_agent_guard_misdirected_test

import data.rules.workflow_agent_guard_misdirected

wf := ".github/workflows/claude.yml"

doc(job) := {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": [object.union({"id": "claude", "file": wf, "line": 9}, job)]}]}

test_misdirected_fires if {
	fs := workflow_agent_guard_misdirected.deny with input as doc({"runs_agent": true, "guard_misdirected": [{"value": "the issue author's author_association checked, the comment's author triggers: x", "file": wf, "line": 12}]})
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-guard-misdirected"
	f.severity == "medium"
	f.property == "review"
	f.line == 12
	contains(f.message, "the issue author's author_association checked")
}

test_not_an_agent_job_quiet if {
	count(workflow_agent_guard_misdirected.deny) == 0 with input as doc({"runs_agent": false, "guard_misdirected": [{"value": "x", "file": wf, "line": 12}]})
}

test_empty_input_quiet if {
	count(workflow_agent_guard_misdirected.deny) == 0 with input as {}
}
