package rules.agent_sandbox_network_open_test

import data.rules.agent_sandbox_network_open

gs := ".gemini/settings.json"

test_docker_sandbox_fires if {
	fs := agent_sandbox_network_open.deny with input as {"agents": [{
		"tool": "gemini", "scope": "project", "file": gs, "line": 1,
		"sandbox_enabled": {"value": true, "file": gs, "line": 3},
		"sandbox_mode": {"value": "docker", "file": gs, "line": 3},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-sandbox-network-open"
	f.property == "network"
	f.severity == "medium"
	f.line == 3
	contains(f.message, "(docker)")
}

# The project file's false overrides the user's true: nothing is on.
test_project_turns_it_off_quiet if {
	count(agent_sandbox_network_open.deny) == 0 with input as {"agents": [
		{
			"tool": "gemini", "scope": "user", "file": "home/u/.gemini/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": "home/u/.gemini/settings.json", "line": 2},
		},
		{
			"tool": "gemini", "scope": "project", "file": gs, "line": 1,
			"sandbox_enabled": {"value": false, "file": gs, "line": 2},
		},
	]}
}

test_no_sandbox_and_other_tools_quiet if {
	count(agent_sandbox_network_open.deny) == 0 with input as {"agents": [
		{"tool": "gemini", "scope": "project", "file": gs, "line": 1},
		{
			"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 2},
		},
	]}
}

test_empty_input_quiet if {
	count(agent_sandbox_network_open.deny) == 0 with input as {}
}

# Qwen Code shares Gemini CLI's sandbox and its open default network.
test_qwen_docker_sandbox_fires if {
	fs := agent_sandbox_network_open.deny with input as {"agents": [{
		"tool": "qwen", "scope": "project", "file": ".qwen/settings.json", "line": 1,
		"sandbox_enabled": {"value": true, "file": ".qwen/settings.json", "line": 2},
		"sandbox_mode": {"value": "docker", "file": ".qwen/settings.json", "line": 2},
	}]}
	count(fs) == 1
}
