package rules.workflow_runner_unverified_test

import data.rules.workflow_runner_unverified

wf := ".github/workflows/copilot-setup-steps.yml"

doc(job) := {"workflows": [{"name": "Copilot Setup Steps", "file": wf, "line": 1, "copilot_setup": true, "runs_agent": true, "jobs": [job]}]}

custom(extra) := object.union({
	"id": "copilot-setup-steps", "file": wf, "line": 8, "runs_agent": true,
	"runs_on": {"value": "arc-agents", "file": wf, "line": 9},
	"runner": "custom", "runner_labels": ["arc-agents"], "self_hosted": false, "ephemeral": false,
}, extra)

test_custom_label_fires_low if {
	fs := workflow_runner_unverified.deny with input as doc(custom({}))
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-runner-unverified"
	f.severity == "low"
	f.property == "disposable"
	f.line == 9
	contains(f.message, "runs on arc-agents, which is not a GitHub-hosted image label")
}

test_labels_named_in_policy_quiet if {
	count(workflow_runner_unverified.deny) == 0 with input as object.union(doc(custom({})), {"params": {"ephemeral_runner_labels": ["ARC-agents"]}})
	count(workflow_runner_unverified.deny) == 0 with input as object.union(doc(custom({})), {"params": {"self_hosted_runner_labels": ["arc-agents"]}})
}

test_group_named_in_policy_quiet if {
	count(workflow_runner_unverified.deny) == 0 with input as object.union(
		doc(custom({"runs_on": {"value": "group: agents", "file": wf, "line": 9}, "runner_labels": ["group:agents"]})),
		{"params": {"ephemeral_runner_labels": ["group:agents"]}},
	)
}

test_known_runners_quiet if {
	count(workflow_runner_unverified.deny) == 0 with input as doc(custom({"runner": "github-hosted", "runner_labels": ["ubuntu-latest"]}))
	count(workflow_runner_unverified.deny) == 0 with input as doc(custom({"runner": "hosted-provider", "ephemeral": true}))
	count(workflow_runner_unverified.deny) == 0 with input as doc(custom({"runner": "self-hosted", "self_hosted": true}))
	count(workflow_runner_unverified.deny) == 0 with input as doc(custom({"ephemeral": true}))
}

test_empty_input_quiet if {
	count(workflow_runner_unverified.deny) == 0 with input as {}
}
