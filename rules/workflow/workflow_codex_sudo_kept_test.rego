package rules.workflow_codex_sudo_kept_test

import data.rules.workflow_codex_sudo_kept

wf := ".github/workflows/codex.yml"

doc(strategy) := {"workflows": [{
	"name": "Codex", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{"id": "codex", "file": wf, "line": 8, "runs_agent": true, "agent_steps": [object.union(
		{"uses": "openai/codex-action@v1", "tool": "codex", "file": wf, "line": 14, "inputs": {}},
		strategy,
	)]}],
}]}

test_unsafe_and_read_only_fire if {
	fs := workflow_codex_sudo_kept.deny with input as doc({"safety_strategy": {"value": "unsafe", "file": wf, "line": 18}})
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-codex-sudo-kept"
	f.severity == "high"
	f.property == "credentials"
	f.line == 18
	contains(f.message, "safety-strategy unsafe")
	count(workflow_codex_sudo_kept.deny) == 1 with input as doc({"safety_strategy": {"value": "read-only", "file": wf, "line": 18}})
}

test_default_and_dropping_strategies_quiet if {
	count(workflow_codex_sudo_kept.deny) == 0 with input as doc({})
	count(workflow_codex_sudo_kept.deny) == 0 with input as doc({"safety_strategy": {"value": "drop-sudo", "file": wf, "line": 18}})
	count(workflow_codex_sudo_kept.deny) == 0 with input as doc({"safety_strategy": {"value": "unprivileged-user", "file": wf, "line": 18}})
}

test_empty_input_quiet if {
	count(workflow_codex_sudo_kept.deny) == 0 with input as {}
}
