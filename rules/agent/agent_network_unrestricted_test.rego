package rules.agent_network_unrestricted_test

import data.rules.agent_network_unrestricted

test_codex_network_no_domains_fires if {
	fs := agent_network_unrestricted.deny with input as {"agents": [{
		"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
		"sandbox_mode": {"value": "workspace-write", "file": ".codex/config.toml", "line": 2},
		"network_access": {"value": true, "file": ".codex/config.toml", "line": 5},
		"allowed_domains": [],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-network-unrestricted"
	f.severity == "high"
	f.property == "network"
	f.file == ".codex/config.toml"
	f.line == 5
}

test_cursor_default_allow_fires if {
	fs := agent_network_unrestricted.deny with input as {"agents": [{
		"tool": "cursor", "scope": "project", "profile": "", "file": ".cursor/sandbox.json", "line": 1,
		"network_default": {"value": "allow", "file": ".cursor/sandbox.json", "line": 4},
		"allowed_domains": [],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 4
	contains(f.message, "default to allow")
}

test_wildcard_domain_fires if {
	fs := agent_network_unrestricted.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"allowed_domains": [
			{"value": "*.github.com", "file": ".claude/settings.json", "line": 9},
			{"value": "*", "file": ".claude/settings.json", "line": 10},
			{"value": "*.com", "file": ".claude/settings.json", "line": 11},
		],
	}]}
	count(fs) == 2
	lines := {f.line | some f in fs}
	lines == {10, 11}
}

test_read_only_codex_quiet if {
	count(agent_network_unrestricted.deny) == 0 with input as {"agents": [{
		"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
		"sandbox_mode": {"value": "read-only", "file": ".codex/config.toml", "line": 2},
		"network_access": {"value": true, "file": ".codex/config.toml", "line": 5},
		"allowed_domains": [],
	}]}
}

test_profile_inherits_read_only if {
	count(agent_network_unrestricted.deny) == 0 with input as {"agents": [
		{
			"tool": "codex", "scope": "user", "profile": "", "file": ".codex/config.toml", "line": 1,
			"sandbox_mode": {"value": "read-only", "file": ".codex/config.toml", "line": 2},
		},
		{
			"tool": "codex", "scope": "user", "profile": "net", "file": ".codex/config.toml", "line": 10,
			"network_access": {"value": true, "file": ".codex/config.toml", "line": 12},
			"allowed_domains": [],
		},
	]}
}

test_hardened_quiet if {
	count(agent_network_unrestricted.deny) == 0 with input as {"agents": [
		{
			"tool": "cursor", "scope": "project", "profile": "", "file": ".cursor/sandbox.json", "line": 1,
			"network_default": {"value": "deny", "file": ".cursor/sandbox.json", "line": 4},
			"allowed_domains": [{"value": "registry.npmjs.org", "file": ".cursor/sandbox.json", "line": 5}],
		},
		{
			"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
			"network_access": {"value": true, "file": ".codex/config.toml", "line": 5},
			"allowed_domains": [{"value": "pypi.org", "file": ".codex/config.toml", "line": 7}],
		},
	]}
}

test_empty_input_quiet if {
	count(agent_network_unrestricted.deny) == 0 with input as {}
}

test_agent_without_lists_quiet if {
	count(agent_network_unrestricted.deny) == 0 with input as {"agents": [{"tool": "codex"}]}
}
