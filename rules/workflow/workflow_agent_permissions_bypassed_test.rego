package rules.workflow_agent_permissions_bypassed_test

import data.rules.workflow_agent_permissions_bypassed

wf := ".github/workflows/claude.yml"

step(extra) := object.union({"uses": "anthropics/claude-code-action@v1", "pinned": false, "file": wf, "line": 15, "inputs": {}}, extra)

job(steps) := {"workflows": [{
	"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true, "agent_steps": steps}],
}]}

test_permission_mode_fires if {
	fs := workflow_agent_permissions_bypassed.deny with input as job([step({
		"permission_mode": {"value": "bypassPermissions", "file": wf, "line": 19},
		"args": {"value": "--permission-mode bypassPermissions --max-turns 20", "file": wf, "line": 19},
	})])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-permissions-bypassed"
	f.severity == "high"
	f.property == "review"
	f.file == wf
	f.line == 19
	contains(f.message, "(bypassPermissions)")
}

test_codex_sandbox_and_args_fire if {
	fs := workflow_agent_permissions_bypassed.deny with input as job([
		step({"uses": "openai/codex-action@v1", "sandbox": {"value": "danger-full-access", "file": wf, "line": 22}}),
		step({"line": 30, "args": {"value": "--dangerously-skip-permissions", "file": wf, "line": 33}}),
	])
	count(fs) == 2
	{f.line | some f in fs} == {22, 33}
}

test_run_step_cli_fires if {
	fs := workflow_agent_permissions_bypassed.deny with input as job([{
		"uses": "", "pinned": false, "tool": "claude-code", "file": wf, "line": 40, "inputs": {},
		"run": "claude -p \"fix the failing test\" --dangerously-skip-permissions",
	}])
	count(fs) == 1
	some f in fs
	f.line == 40
	contains(f.message, "the claude-code CLI")
	contains(f.message, "(--dangerously-skip-permissions)")
}

test_hardened_quiet if {
	count(workflow_agent_permissions_bypassed.deny) == 0 with input as job([
		step({"args": {"value": "--allowedTools Bash(npm test:*),Edit", "file": wf, "line": 19}}),
		step({"uses": "openai/codex-action@v1", "sandbox": {"value": "workspace-write", "file": wf, "line": 22}}),
		{"uses": "", "pinned": false, "tool": "codex", "file": wf, "line": 40, "inputs": {}, "run": "codex exec --sandbox workspace-write \"fix lint\""},
	])
}

test_empty_input_quiet if {
	count(workflow_agent_permissions_bypassed.deny) == 0 with input as {}
}
