package rules.agent_unknown_setting_test

import data.rules.agent_unknown_setting

settings := ".claude/settings.json"

test_misspelt_key_fires if {
	fs := agent_unknown_setting.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"unknown_keys": [{"value": "sandbox.enable", "file": settings, "line": 7}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-unknown-setting"
	f.severity == "medium"
	f.property == "review"
	f.file == settings
	f.line == 7
	contains(f.message, `"sandbox.enable"`)
}

test_hardened_quiet if {
	count(agent_unknown_setting.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"unknown_keys": [],
		"sandbox_enabled": {"value": true, "file": settings, "line": 7},
	}]}
}

test_empty_input_quiet if {
	count(agent_unknown_setting.deny) == 0 with input as {}
}
