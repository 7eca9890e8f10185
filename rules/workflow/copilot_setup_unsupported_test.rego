package rules.copilot_setup_unsupported_test

import data.rules.copilot_setup_unsupported

cs := ".github/workflows/copilot-setup-steps.yml"

setup(jobs) := {"workflows": [{
	"name": "Copilot Setup Steps", "file": cs, "line": 1, "copilot_setup": true, "runs_agent": false,
	"jobs": jobs,
}]}

test_wrong_job_id_fires if {
	fs := copilot_setup_unsupported.deny with input as setup([{"id": "setup", "file": cs, "line": 8}])
	count(fs) == 1
	some f in fs
	f.rule_id == "copilot-setup-unsupported"
	f.severity == "low"
	f.property == "review"
	f.file == cs
	f.line == 8
	contains(f.message, `job "setup"`)
}

test_timeout_over_59_fires if {
	fs := copilot_setup_unsupported.deny with input as setup([{
		"id": "copilot-setup-steps", "file": cs, "line": 8,
		"timeout_minutes": {"value": 90, "file": cs, "line": 10},
	}])
	count(fs) == 1
	some f in fs
	f.line == 10
	contains(f.message, "90")
}

test_unsupported_keys_fire if {
	fs := copilot_setup_unsupported.deny with input as setup([{
		"id": "copilot-setup-steps", "file": cs, "line": 8,
		"ignored_keys": [{"value": "container", "file": cs, "line": 12}, {"value": "env", "file": cs, "line": 14}],
	}])
	count(fs) == 2
	{f.line | some f in fs} == {12, 14}
	some f in fs
	contains(f.message, "sets container")
}

test_hardened_quiet if {
	count(copilot_setup_unsupported.deny) == 0 with input as setup([{
		"id": "copilot-setup-steps", "file": cs, "line": 8,
		"timeout_minutes": {"value": 30, "file": cs, "line": 10},
		"ignored_keys": [],
	}])
}

test_other_workflows_quiet if {
	count(copilot_setup_unsupported.deny) == 0 with input as {"workflows": [{
		"name": "CI", "file": ".github/workflows/ci.yml", "line": 1, "copilot_setup": false,
		"jobs": [{"id": "build", "file": ".github/workflows/ci.yml", "line": 8, "timeout_minutes": {"value": 120, "file": ".github/workflows/ci.yml", "line": 9}}],
	}]}
}

test_empty_input_quiet if {
	count(copilot_setup_unsupported.deny) == 0 with input as {}
}
