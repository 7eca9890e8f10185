package rules.workflow_self_hosted_runner_test

import data.rules.workflow_self_hosted_runner

wf := ".github/workflows/claude.yml"

job(extra) := object.union({
	"id": "claude", "file": wf, "line": 9, "runs_agent": true,
	"runs_on": {"value": "self-hosted, linux", "file": wf, "line": 10},
	"runner": "self-hosted", "runner_labels": ["self-hosted", "linux"],
	"self_hosted": true, "ephemeral": false,
}, extra)

doc(jobs) := {"workflows": [{"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "jobs": jobs}]}

test_persistent_self_hosted_fires if {
	fs := workflow_self_hosted_runner.deny with input as doc([job({})])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-self-hosted-runner"
	f.severity == "high"
	f.property == "disposable"
	f.file == wf
	f.line == 10
	contains(f.message, "(self-hosted, linux)")
}

test_label_named_in_policy_fires if {
	fs := workflow_self_hosted_runner.deny with input as object.union(
		doc([job({"runner": "custom", "runner_labels": ["build-farm"], "self_hosted": false})]),
		{"params": {"self_hosted_runner_labels": ["Build-Farm"]}},
	)
	count(fs) == 1
}

test_ephemeral_label_or_param_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as doc([job({"ephemeral": true})])
	count(workflow_self_hosted_runner.deny) == 0 with input as object.union(
		doc([job({})]),
		{"params": {"ephemeral_runner_labels": ["linux"]}},
	)
}

# A job that neither runs nor prepares the agent leaves nothing of the agent's.
test_non_agent_job_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as doc([job({"id": "post", "runs_agent": false})])
}

test_hosted_and_provider_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as doc([
		job({"runner": "github-hosted", "runner_labels": ["ubuntu-latest"], "self_hosted": false}),
		job({"runner": "hosted-provider", "runner_labels": ["blacksmith-4vcpu-ubuntu-2404"], "self_hosted": false, "ephemeral": true}),
		job({"runner": "custom", "runner_labels": ["gpu-box"], "self_hosted": false}),
	])
}

test_empty_input_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as {}
}
