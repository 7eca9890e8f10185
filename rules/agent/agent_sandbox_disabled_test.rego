package rules.agent_sandbox_disabled_test

import data.rules.agent_sandbox_disabled

test_codex_full_access_fires if {
	fs := agent_sandbox_disabled.deny with input as {"agents": [{
		"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
		"sandbox_mode": {"value": "danger-full-access", "file": ".codex/config.toml", "line": 3},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-sandbox-disabled"
	f.severity == "high"
	f.property == "network"
	f.file == ".codex/config.toml"
	f.line == 3
	contains(f.message, "danger-full-access")
}

test_claude_enabled_false_fires if {
	fs := agent_sandbox_disabled.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"sandbox_enabled": {"value": false, "file": ".claude/settings.json", "line": 8},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 8
}

test_gemini_both_facts_one_finding if {
	fs := agent_sandbox_disabled.deny with input as {"agents": [{
		"tool": "gemini", "scope": "project", "profile": "", "file": ".gemini/settings.json", "line": 1,
		"sandbox_enabled": {"value": false, "file": ".gemini/settings.json", "line": 3},
		"sandbox_mode": {"value": "false", "file": ".gemini/settings.json", "line": 3},
	}]}
	count(fs) == 1
}

test_cursor_insecure_none_fires if {
	fs := agent_sandbox_disabled.deny with input as {"agents": [{
		"tool": "cursor", "scope": "project", "profile": "", "file": ".cursor/sandbox.json", "line": 1,
		"sandbox_mode": {"value": "insecure_none", "file": ".cursor/sandbox.json", "line": 2},
	}]}
	count(fs) == 1
}

test_hardened_quiet if {
	count(agent_sandbox_disabled.deny) == 0 with input as {"agents": [
		{
			"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
			"sandbox_mode": {"value": "workspace-write", "file": ".codex/config.toml", "line": 3},
		},
		{
			"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 8},
		},
	]}
}

test_empty_input_quiet if {
	count(agent_sandbox_disabled.deny) == 0 with input as {}
}

test_unset_quiet if {
	count(agent_sandbox_disabled.deny) == 0 with input as {"agents": [{"tool": "codex", "file": "c.toml", "line": 1}]}
}

test_codex_action_full_access_fires if {
	fs := agent_sandbox_disabled.deny with input as {"agents": [{
		"tool": "codex", "scope": "workflow", "context": `workflow "Codex" job "fix"`,
		"file": ".github/workflows/codex.yml", "line": 20,
		"sandbox_mode": {"value": "danger-full-access", "file": ".github/workflows/codex.yml", "line": 24},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 24
	contains(f.message, `codex in workflow "Codex" job "fix"`)
}

test_gemini_step_sandbox_false_quiet if {
	count(agent_sandbox_disabled.deny) == 0 with input as {"agents": [{
		"tool": "gemini", "scope": "workflow", "context": `workflow "Gemini" job "review"`,
		"file": ".github/workflows/gemini.yml", "line": 20,
		"sandbox_enabled": {"value": false, "file": ".github/workflows/gemini.yml", "line": 31},
	}]}
}
