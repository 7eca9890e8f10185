package rules.workflow_self_hosted_runner_test

import data.rules.workflow_self_hosted_runner

wf := ".github/workflows/claude.yml"

test_persistent_self_hosted_fires if {
	fs := workflow_self_hosted_runner.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"runs_on": {"value": "[self-hosted, linux]", "file": wf, "line": 10},
			"self_hosted": true, "ephemeral": false,
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-self-hosted-runner"
	f.severity == "high"
	f.property == "disposable"
	f.file == wf
	f.line == 10
}

test_ephemeral_and_hosted_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [
			{
				"id": "claude", "file": wf, "line": 9, "runs_agent": true,
				"runs_on": {"value": "[self-hosted, ephemeral]", "file": wf, "line": 10},
				"self_hosted": true, "ephemeral": true,
			},
			{
				"id": "lint", "file": wf, "line": 20, "runs_agent": false,
				"runs_on": {"value": "ubuntu-latest", "file": wf, "line": 21},
				"self_hosted": false, "ephemeral": false,
			},
		],
	}]}
}

test_empty_input_quiet if {
	count(workflow_self_hosted_runner.deny) == 0 with input as {}
}
