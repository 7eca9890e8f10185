package rules.agent_sandbox_not_configured_test

import data.rules.agent_sandbox_not_configured

test_project_without_sandbox_fires if {
	fs := agent_sandbox_not_configured.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"allow": [], "deny": [],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-sandbox-not-configured"
	f.severity == "medium"
	f.property == "network"
	f.file == ".claude/settings.json"
	f.line == 1
}

test_enabled_in_user_settings_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1},
		{
			"tool": "claude-code", "scope": "user", "profile": "", "file": "home/dev/.claude/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": "home/dev/.claude/settings.json", "line": 3},
		},
	]}
}

test_hardened_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 3},
	}]}
}

test_local_scope_and_codex_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "claude-code", "scope": "local", "profile": "", "file": ".claude/settings.local.json", "line": 1},
		{"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1},
	]}
}

test_empty_input_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {}
}
