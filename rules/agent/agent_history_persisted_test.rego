package rules.agent_history_persisted_test

import data.rules.agent_history_persisted

cfg := ".codex/config.toml"

test_save_all_fires if {
	fs := agent_history_persisted.deny with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
		"history_persistence": {"value": "save-all", "file": cfg, "line": 14},
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-history-persisted"
	f.severity == "low"
	f.property == "disposable"
	f.file == cfg
	f.line == 14
}

test_none_quiet if {
	count(agent_history_persisted.deny) == 0 with input as {"agents": [{
		"tool": "codex", "scope": "user", "profile": "", "file": cfg, "line": 1,
		"history_persistence": {"value": "none", "file": cfg, "line": 14},
	}]}
}

test_empty_input_quiet if {
	count(agent_history_persisted.deny) == 0 with input as {}
}
