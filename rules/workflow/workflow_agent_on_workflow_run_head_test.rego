package rules.workflow_agent_on_workflow_run_head_test

import data.rules.workflow_agent_on_workflow_run_head

wf := ".github/workflows/ci-fix.yml"

doc(checkout, runs_agent) := {"workflows": [{
	"name": "CI fixer", "file": wf, "line": 1, "runs_agent": true,
	"triggers": [{"value": "workflow_run", "file": wf, "line": 3}],
	"workflow_run": {"value": "workflow_run", "file": wf, "line": 3},
	"jobs": [{"id": "fix", "file": wf, "line": 10, "runs_agent": runs_agent, "checkouts": [checkout]}],
}]}

co(extra) := object.union({"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "ref": "", "file": wf, "line": 14}, extra)

test_head_sha_fires if {
	fs := workflow_agent_on_workflow_run_head.deny with input as doc(co({"ref": "${{ github.event.workflow_run.head_sha }}"}), true)
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-on-workflow-run-head"
	f.severity == "critical"
	f.property == "review"
	f.line == 14
	contains(f.message, "(head_sha)")
}

test_fork_repository_fires if {
	fs := workflow_agent_on_workflow_run_head.deny with input as doc(co({
		"repository": "${{ github.event.workflow_run.head_repository.full_name }}",
		"ref": "${{ github.event.workflow_run.head_branch }}",
	}), true)
	some f in fs
	contains(f.message, "(head_repository)")
}

# head_branch without the fork's repository is the base repository's branch.
test_head_branch_only_quiet if {
	count(workflow_agent_on_workflow_run_head.deny) == 0 with input as doc(co({"ref": "${{ github.event.workflow_run.head_branch }}"}), true)
}

test_job_without_agent_quiet if {
	count(workflow_agent_on_workflow_run_head.deny) == 0 with input as doc(co({"ref": "${{ github.event.workflow_run.head_sha }}"}), false)
}

test_other_trigger_quiet if {
	count(workflow_agent_on_workflow_run_head.deny) == 0 with input as {"workflows": [{
		"name": "CI fixer", "file": wf, "line": 1, "runs_agent": true,
		"triggers": [{"value": "workflow_dispatch", "file": wf, "line": 3}],
		"jobs": [{"id": "fix", "file": wf, "line": 10, "runs_agent": true, "checkouts": [co({"ref": "${{ github.event.workflow_run.head_sha }}"})]}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_on_workflow_run_head.deny) == 0 with input as {}
}

# the agent job waits for a required reviewer's approval: quiet
test_approval_gated_quiet if {
	d := doc(co({"ref": "${{ github.event.workflow_run.head_sha }}"}), true)
	job := object.union(d.workflows[0].jobs[0], {"environment": {"value": "ci-fix", "file": wf, "line": 11}})
	gated := {"workflows": [object.union(d.workflows[0], {"jobs": [job]})], "repository": {"environments": {"ci-fix": {"required_reviewers": 1}}}}
	count(workflow_agent_on_workflow_run_head.deny) == 0 with input as gated
	count(workflow_agent_on_workflow_run_head.deny) == 1 with input as {"workflows": gated.workflows}
}
