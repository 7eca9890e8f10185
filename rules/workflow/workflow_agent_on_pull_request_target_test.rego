package rules.workflow_agent_on_pull_request_target_test

import data.rules.workflow_agent_on_pull_request_target

wf := ".github/workflows/claude.yml"

test_prt_with_agent_fires if {
	fs := workflow_agent_on_pull_request_target.deny with input as {"workflows": [{
		"name": "Claude review", "file": wf, "line": 1, "runs_agent": true, "copilot_setup": false,
		"triggers": [{"value": "pull_request_target", "file": wf, "line": 4}],
		"pull_request_target": {"value": "pull_request_target", "file": wf, "line": 4},
		"jobs": [{"id": "review", "file": wf, "line": 10, "runs_agent": true}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-on-pull-request-target"
	f.severity == "critical"
	f.property == "review"
	f.file == wf
	f.line == 4
	contains(f.message, `workflow "Claude review"`)
}

test_agent_flag_on_job_only_fires if {
	fs := workflow_agent_on_pull_request_target.deny with input as {"workflows": [{
		"name": "", "file": wf, "line": 1, "runs_agent": false,
		"pull_request_target": {"value": "pull_request_target", "file": wf, "line": 4},
		"jobs": [{"id": "review", "file": wf, "line": 10, "runs_agent": true}],
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, wf)
}

test_pull_request_trigger_quiet if {
	count(workflow_agent_on_pull_request_target.deny) == 0 with input as {"workflows": [{
		"name": "Claude review", "file": wf, "line": 1, "runs_agent": true,
		"triggers": [{"value": "pull_request", "file": wf, "line": 4}],
		"jobs": [{"id": "review", "file": wf, "line": 10, "runs_agent": true}],
	}]}
}

test_prt_without_agent_quiet if {
	count(workflow_agent_on_pull_request_target.deny) == 0 with input as {"workflows": [{
		"name": "Label", "file": wf, "line": 1, "runs_agent": false,
		"pull_request_target": {"value": "pull_request_target", "file": wf, "line": 4},
		"jobs": [{"id": "label", "file": wf, "line": 10, "runs_agent": false}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_on_pull_request_target.deny) == 0 with input as {}
}

prt(jobs) := {"workflows": [{
	"name": "Claude review", "file": wf, "line": 1, "runs_agent": true,
	"pull_request_target": {"value": "pull_request_target", "file": wf, "line": 4},
	"jobs": jobs,
}]}

# Every agent job keeps forks out (head repository == github.repository):
# quiet; one agent job without the test, or a guarded job that is not the
# agent's, still fires.
test_forks_kept_out_quiet if {
	count(workflow_agent_on_pull_request_target.deny) == 0 with input as prt([{"id": "review", "file": wf, "line": 10, "runs_agent": true, "same_repo_only": true}])
	count(workflow_agent_on_pull_request_target.deny) == 1 with input as prt([
		{"id": "review", "file": wf, "line": 10, "runs_agent": true, "same_repo_only": true},
		{"id": "triage", "file": wf, "line": 20, "runs_agent": true},
	])
	count(workflow_agent_on_pull_request_target.deny) == 1 with input as prt([
		{"id": "label", "file": wf, "line": 10, "runs_agent": false, "same_repo_only": true},
		{"id": "review", "file": wf, "line": 20, "runs_agent": true},
	])
}

# An agent job deploying to an environment with required reviewers (read
# from GitHub) waits for a person's approval: quiet. No reviewers, an
# environment not read, or a name from an expression: still fires.
test_approval_gated_quiet if {
	job := {"id": "review", "file": wf, "line": 10, "runs_agent": true, "environment": {"value": "fork-review", "file": wf, "line": 12}}
	gated := object.union(prt([job]), {"repository": {"environments": {"fork-review": {"required_reviewers": 2, "prevent_self_review": true, "wait_timer": 0}}}})
	count(workflow_agent_on_pull_request_target.deny) == 0 with input as gated
	open := object.union(prt([job]), {"repository": {"environments": {"fork-review": {"required_reviewers": 0, "prevent_self_review": false, "wait_timer": 30}}}})
	count(workflow_agent_on_pull_request_target.deny) == 1 with input as open
	count(workflow_agent_on_pull_request_target.deny) == 1 with input as prt([job])
	expr := object.union(prt([object.union(job, {"environment": {"value": "${{ inputs.env }}", "file": wf, "line": 12}})]), {"repository": {"environments": {"${{ inputs.env }}": {"required_reviewers": 1}}}})
	count(workflow_agent_on_pull_request_target.deny) == 1 with input as expr
}
