package rules.agent_approval_bypassed_test

import data.rules.agent_approval_bypassed

test_claude_bypass_fires if {
	fs := agent_approval_bypassed.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"approval_mode": {"value": "bypass", "file": ".claude/settings.json", "line": 4},
		"approval_raw": {"value": "bypassPermissions", "file": ".claude/settings.json", "line": 4},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-approval-bypassed"
	f.severity == "high"
	f.property == "review"
	f.file == ".claude/settings.json"
	f.line == 4
	contains(f.message, "bypassPermissions")
}

test_codex_profile_named if {
	fs := agent_approval_bypassed.deny with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "ci", "file": ".codex/config.toml", "line": 10,
		"approval_mode": {"value": "bypass", "file": ".codex/config.toml", "line": 12},
	}]}
	some f in fs
	contains(f.message, `codex profile "ci"`)
	f.line == 12
}

test_hardened_ask_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"approval_mode": {"value": "ask", "file": ".claude/settings.json", "line": 4},
	}]}
}

test_managed_disable_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [
		{
			"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
			"approval_mode": {"value": "bypass", "file": ".claude/settings.json", "line": 4},
		},
		{
			"tool": "claude-code", "scope": "managed", "profile": "", "file": "etc/claude-code/managed-settings.json", "line": 1,
			"bypass_disabled": {"value": true, "file": "etc/claude-code/managed-settings.json", "line": 3},
		},
	]}
}

test_empty_input_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {}
}

test_agent_without_optional_fields_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [{"tool": "gemini"}]}
}
