package lib.agent_test

import data.lib.agent

test_claude_prefix_and_glob_forms if {
	agent.matches("Bash(git push:*)", "git push origin main")
	agent.matches("Bash(git *)", "git push origin main")
	agent.matches("Bash", "rm -rf /")
	not agent.matches("Bash(git push origin main)", "git push origin HEAD")
	not agent.matches("Bash(npm test:*)", "git push")
}

test_prefix_shells if {
	agent.matches("run_shell_command(git)", "git push")
	agent.matches("Shell(gh pr)", "gh pr merge 1")
	not agent.matches("ShellTool(npm)", "git push")
}

test_mcp_rules if {
	agent.matches("mcp__github", "mcp__github__merge_pull_request")
	agent.matches("mcp__github__*", "mcp__github__merge_pull_request")
	not agent.matches("mcp__github__get_issue", "mcp__github__merge_pull_request")
	not agent.matches("Bash(*)", "mcp__github__merge_pull_request")
}

test_read_rules if {
	agent.reads("Read(~/.aws/**)", "~/.aws/credentials")
	agent.reads("Read(//root/.ssh/**)", "/root/.ssh/id_rsa")
	agent.reads("Read(./.env)", ".env")
	not agent.reads("Read(./**)", "~/.aws/credentials")
	not agent.reads("Read(src/**)", ".env")
}

test_effective_takes_highest_scope if {
	f := agent.effective({"tool": "claude-code"}, "sandbox_enabled") with input as {"agents": [
		{"tool": "claude-code", "scope": "user", "sandbox_enabled": {"value": true, "file": "u", "line": 1}},
		{"tool": "claude-code", "scope": "managed", "sandbox_enabled": {"value": false, "file": "m", "line": 2}},
		{"tool": "claude-code", "scope": "project"},
	]}
	f.file == "m"
}

test_effective_undefined_when_unset if {
	not agent.effective({"tool": "claude-code"}, "sandbox_enabled") with input as {"agents": [{"tool": "claude-code", "scope": "project"}]}
}

test_label if {
	agent.label({"tool": "codex", "profile": "ci", "scope": "user"}) == `codex profile "ci" (user settings)`
	agent.label({"tool": "cursor"}) == "cursor"
}

test_label_of_a_workflow_step if {
	agent.label({"tool": "claude-code", "scope": "workflow", "context": `workflow "CI" job "fix"`}) == `claude-code in workflow "CI" job "fix"`
	agent.in_workflow({"scope": "workflow"})
	not agent.in_workflow({"scope": "project"})
}

test_copilot_shell_rules_match_by_prefix if {
	agent.matches("shell(git)", "git push origin HEAD")
	agent.matches("shell(git push)", "git push --force origin main")
	not agent.matches("shell(npm test)", "git push")
}

# A workflow step's flags outrank project settings, managed settings outrank both.
test_step_flags_outrank_project_below_managed if {
	agents := [
		{"tool": "claude-code", "scope": "project", "approval_mode": {"value": "default", "file": "p", "line": 1}},
		{"tool": "claude-code", "scope": "workflow", "approval_mode": {"value": "bypass", "file": "w", "line": 2}},
	]
	agent.effective({"tool": "claude-code"}, "approval_mode").file == "w" with input as {"agents": agents}
	managed := array.concat(agents, [{"tool": "claude-code", "scope": "managed", "approval_mode": {"value": "default", "file": "m", "line": 3}}])
	agent.effective({"tool": "claude-code"}, "approval_mode").file == "m" with input as {"agents": managed}
}
