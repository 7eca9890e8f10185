package rules.workflow_agent_model_key_readable_test

import data.rules.workflow_agent_model_key_readable

wf := ".github/workflows/claude.yml"

job(secrets) := job_with(secrets, [{"tool": "claude-code", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20, "approval_mode": {"value": "bypass", "file": wf, "line": 21}}])

job_with(secrets, agents) := {"agents": agents, "workflows": [{
	"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "claude", "file": wf, "line": 9, "runs_agent": true,
		"agent_steps": [{"uses": "anthropics/claude-code-action@v1", "tool": "claude-code", "file": wf, "line": 20, "inputs": {}, "secrets": secrets}],
	}],
}]}

test_model_key_input_fires_low if {
	fs := workflow_agent_model_key_readable.deny with input as job([{"name": "CLAUDE_API_KEY", "via": "input", "to": "anthropic_api_key", "model_key": true, "file": wf, "line": 22}])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-model-key-readable"
	f.severity == "low"
	f.property == "credentials"
	f.line == 22
	contains(f.message, "anthropic_api_key (secret CLAUDE_API_KEY) reaches its process as an input the agent action passes on")
}

test_same_name_env_named_once if {
	fs := workflow_agent_model_key_readable.deny with input as job([{"name": "OPENAI_API_KEY", "via": "step-env", "to": "OPENAI_API_KEY", "model_key": true, "file": wf, "line": 30}])
	some f in fs
	contains(f.message, "credential OPENAI_API_KEY reaches its process through the agent step's env")
}

# codex-action's default drop-sudo keeps the key in its proxy: the collector
# lists no model key then.
test_other_secrets_and_proxied_key_quiet if {
	count(workflow_agent_model_key_readable.deny) == 0 with input as job([
		{"name": "NPM_TOKEN", "via": "step-env", "to": "NPM_TOKEN", "model_key": false, "file": wf, "line": 30},
		{"name": "GITHUB_TOKEN", "via": "input", "to": "github_token", "model_key": false, "file": wf, "line": 31},
	])
}

# An agent held to named commands, or with no agents[] entry (the action's
# defaults), cannot print its environment.
test_agent_without_open_shell_quiet if {
	key := [{"name": "ANTHROPIC_API_KEY", "via": "input", "to": "anthropic_api_key", "model_key": true, "file": wf, "line": 22}]
	count(workflow_agent_model_key_readable.deny) == 0 with input as job_with(key, [])
	count(workflow_agent_model_key_readable.deny) == 0 with input as job_with(key, [{"tool": "claude-code", "scope": "workflow", "context": "c", "file": wf, "line": 20, "allow": [{"value": "Bash(gh pr view:*)", "file": wf, "line": 21}]}])
	count(workflow_agent_model_key_readable.deny) == 0 with input as job_with(key, [{
		"tool": "gemini", "scope": "workflow", "context": "c", "file": wf, "line": 20,
		"approval_mode": {"value": "bypass", "file": wf, "line": 21},
		"tool_list": {"value": "tools.core", "file": wf, "line": 22}, "tools": [{"value": "run_shell_command(gh pr diff)", "file": wf, "line": 22}],
	}])
}

# Bash allowed unasked, or a tool list that holds the bare shell: readable.
test_agent_with_open_shell_fires if {
	key := [{"name": "ANTHROPIC_API_KEY", "via": "input", "to": "anthropic_api_key", "model_key": true, "file": wf, "line": 22}]
	count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [{"tool": "claude-code", "scope": "workflow", "context": "c", "file": wf, "line": 20, "allow": [{"value": "Bash", "file": wf, "line": 21}]}])
	count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [{
		"tool": "gemini", "scope": "workflow", "context": "c", "file": wf, "line": 20,
		"approval_mode": {"value": "bypass", "file": wf, "line": 21},
		"tool_list": {"value": "tools.core", "file": wf, "line": 22}, "tools": [{"value": "run_shell_command", "file": wf, "line": 22}],
	}])
}

test_empty_input_quiet if {
	count(workflow_agent_model_key_readable.deny) == 0 with input as {}
}

# A key per provider handed to one step: one finding, at the first, naming
# the others.
test_several_keys_one_finding if {
	fs := workflow_agent_model_key_readable.deny with input as job([
		{"name": "OPENAI_API_KEY", "via": "input", "to": "openai_api_key", "model_key": true, "file": wf, "line": 22},
		{"name": "GROQ_API_KEY", "via": "input", "to": "groq_api_key", "model_key": true, "file": wf, "line": 23},
		{"name": "NPM_TOKEN", "via": "step-env", "to": "NPM_TOKEN", "model_key": false, "file": wf, "line": 30},
	])
	count(fs) == 1
	some f in fs
	f.line == 22
	contains(f.message, "credential OPENAI_API_KEY reaches its process as an input the agent action passes on (and GROQ_API_KEY)")
}

# A bypassed agent whose only shell command prints the environment, or an
# allowed printenv: the key is printed.
test_printenv_tool_prints_the_key if {
	key := [{"name": "GEMINI_API_KEY", "via": "input", "to": "gemini_api_key", "model_key": true, "file": wf, "line": 22}]
	tools := {"tool": "gemini", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20,
		"approval_mode": {"value": "bypass", "file": wf, "line": 21}, "tool_list": {"file": wf, "line": 23},
		"tools": [{"value": "run_shell_command(printenv)", "file": wf, "line": 23}]}
	count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [tools])
	ls := object.union(tools, {"tools": [{"value": "run_shell_command(ls)", "file": wf, "line": 23}]})
	count(workflow_agent_model_key_readable.deny) == 0 with input as job_with(key, [ls])
	allowed := {"tool": "claude-code", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20,
		"allow": [{"value": "Bash(printenv)", "file": wf, "line": 24}]}
	count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [allowed])
}

# env with no command prints the environment as printenv does: in a bypassed
# Gemini agent's tool list, or an allowed Bash(env), Bash(env:*), Bash(env *).
test_env_prints_the_key if {
	key := [{"name": "GEMINI_API_KEY", "via": "input", "to": "gemini_api_key", "model_key": true, "file": wf, "line": 22}]
	tools := {"tool": "gemini", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20,
		"approval_mode": {"value": "bypass", "file": wf, "line": 21}, "tool_list": {"file": wf, "line": 23},
		"tools": [{"value": "run_shell_command(env)", "file": wf, "line": 23}]}
	count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [tools])
	every rule in ["Bash(env)", "Bash(env:*)", "Bash(env *)", "Bash(printenv:*)"] {
		allowed := {"tool": "claude-code", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20,
			"allow": [{"value": rule, "file": wf, "line": 24}]}
		count(workflow_agent_model_key_readable.deny) == 1 with input as job_with(key, [allowed])
	}
}

# env that runs a named command, or empties the environment, and printenv of
# one named variable print no key
test_env_running_a_command_quiet if {
	key := [{"name": "ANTHROPIC_API_KEY", "via": "input", "to": "anthropic_api_key", "model_key": true, "file": wf, "line": 22}]
	allowed := {"tool": "claude-code", "scope": "workflow", "context": "workflow Claude", "file": wf, "line": 20,
		"allow": [{"value": "Bash(env CI=1 npm test)", "file": wf, "line": 24}, {"value": "Bash(env -i)", "file": wf, "line": 25}, {"value": "Bash(printenv HOME)", "file": wf, "line": 26}]}
	count(workflow_agent_model_key_readable.deny) == 0 with input as job_with(key, [allowed])
}
