package rules.agent_sandbox_not_configured_test

import data.rules.agent_sandbox_not_configured

test_project_without_sandbox_fires if {
	fs := agent_sandbox_not_configured.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"allow": [{"value": "Bash(npm test:*)", "file": ".claude/settings.json", "line": 3}], "deny": [],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-sandbox-not-configured"
	f.severity == "medium"
	f.property == "network"
	f.file == ".claude/settings.json"
	f.line == 1
	contains(f.message, "the Bash sandbox stays off")
}

test_enabled_in_user_settings_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
		{
			"tool": "claude-code", "scope": "user", "profile": "", "file": "home/dev/.claude/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": "home/dev/.claude/settings.json", "line": 3},
		},
	]}
}

test_hardened_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}],
		"sandbox_enabled": {"value": true, "file": ".claude/settings.json", "line": 3},
	}]}
}

test_gemini_without_sandbox_fires if {
	fs := agent_sandbox_not_configured.deny with input as {"agents": [{
		"tool": "gemini", "scope": "project", "profile": "", "file": ".gemini/settings.json", "line": 1,
		"approval_mode": {"value": "bypass", "file": ".gemini/settings.json", "line": 2},
	}]}
	count(fs) == 1
	some f in fs
	f.file == ".gemini/settings.json"
	contains(f.message, "does not set tools.sandbox and no other Gemini CLI settings file does: commands run without a sandbox unless --sandbox or GEMINI_SANDBOX turns it on")
}

test_gemini_sandbox_in_user_settings_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "gemini", "scope": "project", "profile": "", "file": ".gemini/settings.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
		{
			"tool": "gemini", "scope": "user", "profile": "", "file": "home/dev/.gemini/settings.json", "line": 1,
			"sandbox_enabled": {"value": true, "file": "home/dev/.gemini/settings.json", "line": 2},
			"sandbox_mode": {"value": "docker", "file": "home/dev/.gemini/settings.json", "line": 2},
		},
	]}
}

# Settings that turn the sandbox off are judged by agent-sandbox-disabled.
test_gemini_sandbox_false_is_set if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [{
		"tool": "gemini", "scope": "project", "profile": "", "file": ".gemini/settings.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}],
		"sandbox_enabled": {"value": false, "file": ".gemini/settings.json", "line": 2},
	}]}
}

test_workflow_step_agents_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "claude-code", "scope": "workflow", "context": `workflow "C" job "c"`, "file": ".github/workflows/c.yml", "line": 9, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
		{"tool": "gemini", "scope": "workflow", "context": `workflow "G" job "g"`, "file": ".github/workflows/g.yml", "line": 9, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
	]}
}

test_local_scope_and_codex_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [
		{"tool": "claude-code", "scope": "local", "profile": "", "file": ".claude/settings.local.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
		{"tool": "codex", "scope": "project", "profile": "", "file": ".codex/config.toml", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
	]}
}

test_empty_input_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {}
}

# Nothing runs without a person (no shell allow rule, no bypass): hooks,
# ask rules, file-tool allows, a WebFetch rule say nothing of the sandbox.
test_nothing_unattended_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1,
		"allow": [{"value": "Read", "file": ".claude/settings.json", "line": 3}, {"value": "WebFetch(domain:docs.example.com)", "file": ".claude/settings.json", "line": 4}],
		"ask": [{"value": "Bash(git push:*)", "file": ".claude/settings.json", "line": 5}],
		"approval_mode": {"value": "auto", "file": ".claude/settings.json", "line": 6},
	}]}
}

# A shell allow rule in another file of the same project counts.
test_allow_in_peer_fires if {
	fs := agent_sandbox_not_configured.deny with input as {"agents": [
		{"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1, "allow": [{"value": "Bash", "file": "x", "line": 2}]},
		{"tool": "claude-code", "scope": "local", "profile": "", "file": ".claude/settings.local.json", "line": 1, "allow": [{"value": "Bash", "file": ".claude/settings.local.json", "line": 2}]},
	]}
	count(fs) == 1
}

# Inside the scan's devcontainer the container is the sandbox.
test_in_devcontainer_quiet if {
	count(agent_sandbox_not_configured.deny) == 0 with input as {
		"agents": [{"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1, "allow": [{"value": "Bash(*)", "file": ".claude/settings.json", "line": 2}]}],
		"workloads": [{"source": "devcontainer", "name": "dev", "judged": true}],
	}
	# a devcontainer that is not the agent's (not judged) does not
	count(agent_sandbox_not_configured.deny) == 1 with input as {
		"agents": [{"tool": "claude-code", "scope": "project", "profile": "", "file": ".claude/settings.json", "line": 1, "allow": [{"value": "Bash(*)", "file": ".claude/settings.json", "line": 2}]}],
		"workloads": [{"source": "devcontainer", "name": "dev", "judged": false}],
	}
}

# Qwen Code, Gemini CLI's fork, keeps its sandbox off by default too.
test_qwen_without_sandbox_fires if {
	fs := agent_sandbox_not_configured.deny with input as {"agents": [{
		"tool": "qwen", "scope": "project", "profile": "", "file": ".qwen/settings.json", "line": 1,
		"allow": [{"value": "Bash(git push *)", "file": ".qwen/settings.json", "line": 3}],
	}]}
	some f in fs
	contains(f.message, "does not set tools.sandbox and no other Qwen Code settings file does")
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [{
		"tool": "qwen", "scope": "project", "profile": "", "file": ".qwen/settings.json", "line": 1,
		"allow": [{"value": "Bash(git push *)", "file": ".qwen/settings.json", "line": 3}],
		"sandbox_enabled": {"value": true, "file": ".qwen/settings.json", "line": 5},
	}]}
}

# An agent a container's command starts with approval bypassed: the
# container is the sandbox. The same agent in a settings file fires.
test_in_container_quiet if {
	a := {
		"tool": "claude-code", "scope": "project", "profile": "", "file": "run.sh", "line": 3,
		"approval_mode": {"value": "bypass", "file": "run.sh", "line": 3},
	}
	count(agent_sandbox_not_configured.deny) == 1 with input as {"agents": [a]}
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [object.union(a, {"workload": "script:run.sh:3"})]}
}

# The project's settings file, grouped with that container's agent, is not
# made unattended by the container's flag.
test_settings_beside_container_bypass_quiet if {
	settings := {"tool": "claude-code", "scope": "project", "profile": "", "group": "g", "file": ".claude/settings.json", "line": 1, "allow": []}
	run := {
		"tool": "claude-code", "scope": "project", "profile": "", "group": "g", "file": "run.sh", "line": 3,
		"approval_mode": {"value": "bypass", "file": "run.sh", "line": 3}, "workload": "script:run.sh:3",
	}
	count(agent_sandbox_not_configured.deny) == 0 with input as {"agents": [settings, run], "agent_groups": {"g": [0, 1]}}
	count(agent_sandbox_not_configured.deny) == 2 with input as {"agents": [settings, object.remove(run, ["workload"])], "agent_groups": {"g": [0, 1]}}
}
