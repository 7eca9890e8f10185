package rules.workflow_allowed_bots_wildcard_test

import data.rules.workflow_allowed_bots_wildcard

wf := ".github/workflows/claude.yml"

test_wildcards_fire if {
	fs := workflow_allowed_bots_wildcard.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [{
				"uses": "anthropics/claude-code-action@v1", "pinned": false, "file": wf, "line": 15,
				"allowed_bots": {"value": "*", "file": wf, "line": 18},
				"allowed_non_write_users": {"value": "*", "file": wf, "line": 19},
				"inputs": {},
			}],
		}],
	}]}
	count(fs) == 2
	{f.line | some f in fs} == {18, 19}
	some f in fs
	f.rule_id == "workflow-allowed-bots-wildcard"
	f.severity == "high"
	f.property == "review"
	f.file == wf
}

test_named_bots_quiet if {
	count(workflow_allowed_bots_wildcard.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [{
				"uses": "anthropics/claude-code-action@v1", "pinned": false, "file": wf, "line": 15,
				"allowed_bots": {"value": "dependabot[bot]", "file": wf, "line": 18},
				"inputs": {},
			}],
		}],
	}]}
}

test_codex_allow_users_wildcard_fires if {
	fs := workflow_allowed_bots_wildcard.deny with input as {"workflows": [{
		"name": "Codex", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "codex", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [{
				"uses": "openai/codex-action@v1", "pinned": false, "file": wf, "line": 15,
				"inputs": {"allow-users": {"value": "*", "file": wf, "line": 19}, "allow-bot-users": {"value": "renovate", "file": wf, "line": 20}},
			}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 19
	contains(f.message, `sets allow-users "*"`)
}

test_codex_named_users_quiet if {
	count(workflow_allowed_bots_wildcard.deny) == 0 with input as {"workflows": [{
		"name": "Codex", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "codex", "file": wf, "line": 9, "runs_agent": true,
			"agent_steps": [{"uses": "openai/codex-action@v1", "pinned": false, "file": wf, "line": 15, "inputs": {"allow-users": {"value": "alice,bob", "file": wf, "line": 19}}}],
		}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_allowed_bots_wildcard.deny) == 0 with input as {}
}
