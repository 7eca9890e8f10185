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

wf := ".github/workflows/gemini.yml"

step(extra) := object.union({
	"tool": "gemini", "scope": "workflow", "context": `workflow "Gemini" job "review"`,
	"file": wf, "line": 20,
	"approval_mode": {"value": "bypass", "file": wf, "line": 20},
	"approval_raw": {"value": "--yolo (run-gemini-cli passes it on every run)", "file": wf, "line": 20},
}, extra)

test_run_gemini_cli_without_tool_list_fires if {
	fs := agent_approval_bypassed.deny with input as {"agents": [step({"tools": []})]}
	count(fs) == 1
	some f in fs
	f.line == 20
	contains(f.message, `gemini in workflow "Gemini" job "review" runs with approval bypassed`)
	contains(f.message, "run-gemini-cli passes it")
}

test_run_gemini_cli_with_narrow_core_tools_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [step({"tool_list": {"file": wf, "line": 29}, "tools": [
		{"value": "run_shell_command(cat)", "file": wf, "line": 30},
		{"value": "run_shell_command(echo)", "file": wf, "line": 31},
	]})]}
}

test_core_tools_with_whole_shell_fire if {
	fs := agent_approval_bypassed.deny with input as {"agents": [step({"tool_list": {"file": wf, "line": 29}, "tools": [
		{"value": "read_file", "file": wf, "line": 30},
		{"value": "run_shell_command", "file": wf, "line": 31},
	]})]}
	count(fs) == 1
}

# tools.core: [] registers no built-in tool at all (Gemini CLI's tool
# registry enables a core tool only when the list names it).
test_empty_core_tool_list_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [step({"tool_list": {"file": wf, "line": 29}, "tools": []})]}
}

test_disable_yolo_in_settings_input_quiet if {
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [step({
		"tools": [],
		"bypass_disabled": {"value": true, "file": wf, "line": 33},
	})]}
}

test_claude_cli_flag_in_run_step_fires if {
	fs := agent_approval_bypassed.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "workflow", "context": `workflow "Fix" job "fix"`,
		"file": wf, "line": 40,
		"approval_mode": {"value": "bypass", "file": wf, "line": 42},
		"approval_raw": {"value": "--dangerously-skip-permissions", "file": wf, "line": 42},
	}]}
	some f in fs
	f.line == 42
	contains(f.message, "--dangerously-skip-permissions")
}

# Codex's never under its sandbox asks nothing but runs every command
# confined; with danger-full-access (in the file, or the profile's file
# top level) it is a bypass.
test_codex_never_confined_quiet if {
	codex := {
		"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1,
		"approval_mode": {"value": "bypass", "file": ".codex/config.toml", "line": 1},
		"approval_raw": {"value": "never", "file": ".codex/config.toml", "line": 1},
	}
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [codex]}
	count(agent_approval_bypassed.deny) == 0 with input as {"agents": [object.union(codex, {"sandbox_mode": {"value": "workspace-write", "file": ".codex/config.toml", "line": 2}})]}
	fs := agent_approval_bypassed.deny with input as {"agents": [object.union(codex, {"sandbox_mode": {"value": "danger-full-access", "file": ".codex/config.toml", "line": 2}})]}
	count(fs) == 1
}

# OpenCode's default is allow: a config that sets nothing for every command
# is reported as such; one that allows every permission by name quotes it.
test_opencode_default_and_explicit_fire if {
	fs := agent_approval_bypassed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "profile": "", "file": "opencode.json", "line": 1,
		"approval_mode": {"value": "bypass", "file": "opencode.json", "line": 1},
		"approval_raw": {"value": "(default)", "file": "opencode.json", "line": 1},
	}]}
	some f in fs
	contains(f.message, "sets no ask or deny rule for every command, so OpenCode's default stands unless a user or managed config sets one")
	f.severity == "medium"
	gs := agent_approval_bypassed.deny with input as {"agents": [{
		"tool": "opencode", "scope": "project", "profile": "", "file": "opencode.json", "line": 1,
		"approval_mode": {"value": "bypass", "file": "opencode.json", "line": 3},
		"approval_raw": {"value": "permission \"allow\"", "file": "opencode.json", "line": 3},
	}]}
	some g in gs
	contains(g.message, `sets approval mode "permission \"allow\""`)
	g.line == 3
	g.severity == "high"
}
