package rules.agent_env_secrets_inherited_test

import data.rules.agent_env_secrets_inherited

cfg := ".codex/config.toml"

test_ignore_excludes_default_inherit_fires if {
	fs := agent_env_secrets_inherited.deny with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
		"env_ignore_default_excludes": {"value": true, "file": cfg, "line": 9},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-env-secrets-inherited"
	f.severity == "high"
	f.property == "credentials"
	f.file == cfg
	f.line == 9
}

test_explicit_inherit_all_fires if {
	fs := agent_env_secrets_inherited.deny with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "ci", "file": cfg, "line": 1,
		"env_inherit_all": {"value": true, "file": cfg, "line": 20},
		"env_ignore_default_excludes": {"value": true, "file": cfg, "line": 21},
	}]}
	count(fs) == 1
}

test_inherit_core_quiet if {
	count(agent_env_secrets_inherited.deny) == 0 with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
		"env_inherit_all": {"value": false, "file": cfg, "line": 8},
		"env_ignore_default_excludes": {"value": true, "file": cfg, "line": 9},
	}]}
}

test_profile_takes_top_level_inherit if {
	count(agent_env_secrets_inherited.deny) == 0 with input as {"agents": [
		{
			"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
			"env_inherit_all": {"value": false, "file": cfg, "line": 8},
		},
		{
			"tool": "codex", "scope": "user", "profile": "ci", "file": cfg, "line": 20,
			"env_ignore_default_excludes": {"value": true, "file": cfg, "line": 22},
		},
	]}
}

test_hardened_quiet if {
	count(agent_env_secrets_inherited.deny) == 0 with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
		"env_ignore_default_excludes": {"value": false, "file": cfg, "line": 9},
	}]}
}

test_empty_input_quiet if {
	count(agent_env_secrets_inherited.deny) == 0 with input as {}
}
