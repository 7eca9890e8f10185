package rules.agent_all_project_mcp_enabled_test

import data.rules.agent_all_project_mcp_enabled

settings := ".claude/settings.json"

test_enable_all_fires if {
	fs := agent_all_project_mcp_enabled.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"enable_all_project_mcp": {"value": true, "file": settings, "line": 2},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-all-project-mcp-enabled"
	f.severity == "medium"
	f.property == "review"
	f.file == settings
	f.line == 2
}

test_hardened_quiet if {
	count(agent_all_project_mcp_enabled.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"enable_all_project_mcp": {"value": false, "file": settings, "line": 2},
	}]}
}

test_empty_input_quiet if {
	count(agent_all_project_mcp_enabled.deny) == 0 with input as {}
}
