package rules.agent_unsandboxed_commands_test

import data.rules.agent_unsandboxed_commands

settings := ".claude/settings.json"

test_default_escape_hatch_fires if {
	fs := agent_unsandboxed_commands.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"sandbox_enabled": {"value": true, "file": settings, "line": 3},
		"excluded_commands": [],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-unsandboxed-commands"
	f.severity == "medium"
	f.property == "network"
	f.file == settings
	f.line == 3
	contains(f.message, "default true")
}

test_explicit_true_points_at_setting if {
	fs := agent_unsandboxed_commands.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"sandbox_enabled": {"value": true, "file": settings, "line": 3},
		"allow_unsandboxed": {"value": true, "file": settings, "line": 4},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 4
}

test_excluded_commands_fire_each if {
	fs := agent_unsandboxed_commands.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"sandbox_enabled": {"value": true, "file": settings, "line": 3},
		"allow_unsandboxed": {"value": false, "file": settings, "line": 4},
		"excluded_commands": [
			{"value": "docker", "file": settings, "line": 6},
			{"value": "gh", "file": settings, "line": 7},
		],
	}]}
	count(fs) == 2
	{f.line | some f in fs} == {6, 7}
	some f in fs
	contains(f.message, `"docker"`)
}

test_managed_closes_hatch_for_project if {
	count(agent_unsandboxed_commands.deny) == 0 with input as {"agents": [
		{
			"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
			"sandbox_enabled": {"value": true, "file": settings, "line": 3},
			"allow_unsandboxed": {"value": true, "file": settings, "line": 4},
		},
		{
			"tool": "claude-code", "scope": "managed", "profile": "", "file": "etc/claude-code/managed-settings.json", "line": 1,
			"allow_unsandboxed": {"value": false, "file": "etc/claude-code/managed-settings.json", "line": 5},
		},
	]}
}

test_hardened_quiet if {
	count(agent_unsandboxed_commands.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"sandbox_enabled": {"value": true, "file": settings, "line": 3},
		"allow_unsandboxed": {"value": false, "file": settings, "line": 4},
		"excluded_commands": [],
	}]}
}

test_sandbox_off_quiet if {
	count(agent_unsandboxed_commands.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"excluded_commands": [{"value": "docker", "file": settings, "line": 6}],
	}]}
}

test_empty_input_quiet if {
	count(agent_unsandboxed_commands.deny) == 0 with input as {}
}
