package rules.workflow_agent_guard_partial_test

import data.rules.workflow_agent_guard_partial as r

wf := ".github/workflows/agent.yml"

doc(runs_agent, gaps) := {"workflows": [{
	"name": "Agent", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{"id": "agent", "file": wf, "line": 9, "runs_agent": runs_agent, "guard_gaps": gaps}],
}]}

gap := {"value": "(github.event_name == 'issues' && contains(github.event.issue.body, '@bot'))", "file": wf, "line": 14}

test_unguarded_branch_fires if {
	fs := r.deny with input as doc(true, [gap])
	count(fs) == 1
	some x in fs
	x.rule_id == "workflow-agent-guard-partial"
	x.property == "review"
	x.severity == "medium"
	x.line == 14
	contains(x.message, `job "agent" checks author_association in some branches of its if: but not in "(github.event_name == 'issues'`)
}

test_several_gaps_one_finding if {
	fs := r.deny with input as doc(true, [gap, object.union(gap, {"line": 15}), object.union(gap, {"line": 16})])
	count(fs) == 1
	some x in fs
	x.line == 14
	contains(x.message, "but not in 3 other branches, the first \"(github.event_name")
	contains(x.message, "so those branches start the agent for anyone")
}

test_no_gap_or_no_agent_quiet if {
	count(r.deny) == 0 with input as doc(true, [])
	count(r.deny) == 0 with input as doc(false, [gap])
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
