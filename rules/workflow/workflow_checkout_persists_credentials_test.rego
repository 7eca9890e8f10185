package rules.workflow_checkout_persists_credentials_test

import data.rules.workflow_checkout_persists_credentials

wf := ".github/workflows/claude.yml"

test_default_checkout_in_agent_job_fires if {
	fs := workflow_checkout_persists_credentials.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true, "copilot_setup": false,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "ref": "", "file": wf, "line": 14}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-checkout-persists-credentials"
	f.severity == "medium"
	f.property == "credentials"
	f.file == wf
	f.line == 14
	contains(f.message, "GITHUB_TOKEN")
}

test_copilot_setup_with_pat_fires if {
	cs := ".github/workflows/copilot-setup-steps.yml"
	fs := workflow_checkout_persists_credentials.deny with input as {"workflows": [{
		"name": "Copilot Setup Steps", "file": cs, "line": 1, "runs_agent": false, "copilot_setup": true,
		"jobs": [{
			"id": "copilot-setup-steps", "file": cs, "line": 8, "runs_agent": false,
			"checkouts": [{"uses": "actions/checkout@v5", "persist_credentials": true, "token": "secrets.PAT", "file": cs, "line": 15}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 15
	contains(f.message, "secrets.PAT")
}

test_hardened_quiet if {
	count(workflow_checkout_persists_credentials.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [
			{
				"id": "claude", "file": wf, "line": 9, "runs_agent": true,
				"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": false, "token": "", "file": wf, "line": 14}],
			},
			{
				"id": "build", "file": wf, "line": 30, "runs_agent": false,
				"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "file": wf, "line": 33}],
			},
		],
	}]}
}

# the job's token can write nothing: it reads the checked-out repository only
test_read_only_job_token_quiet if {
	count(workflow_checkout_persists_credentials.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": [],
			"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "file": wf, "line": 14}],
		}],
	}]}
	# id-token: write (claude-code-action's OIDC exchange) writes nothing
	count(workflow_checkout_persists_credentials.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["id-token"],
			"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "file": wf, "line": 14}],
		}],
	}]}
}

# a write scope, an unknown default, or another token: the agent holds a
# credential it should not
test_write_default_or_other_token_fires if {
	fs := workflow_checkout_persists_credentials.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [
			{
				"id": "a", "file": wf, "line": 9, "runs_agent": true, "effective_write": ["pull-requests"],
				"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "file": wf, "line": 14}],
			},
			{
				"id": "b", "file": wf, "line": 20, "runs_agent": true, "effective_write": ["default"],
				"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "file": wf, "line": 24}],
			},
			{
				"id": "c", "file": wf, "line": 30, "runs_agent": true, "effective_write": [],
				"checkouts": [{"uses": "actions/checkout@v4", "persist_credentials": true, "token": "secrets.BOT_PAT", "file": wf, "line": 34}],
			},
		],
	}]}
	{f.line | some f in fs} == {14, 24, 34}
}

test_empty_input_quiet if {
	count(workflow_checkout_persists_credentials.deny) == 0 with input as {}
}
