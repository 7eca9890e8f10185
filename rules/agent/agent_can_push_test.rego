package rules.agent_can_push_test

import data.rules.agent_can_push

settings := ".claude/settings.json"

claude(allow, deny) := {
	"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": i + 3} | some i, v in allow],
	"deny": [{"value": v, "file": settings, "line": i + 20} | some i, v in deny],
	"ask": [],
}

test_git_push_prefix_fires if {
	fs := agent_can_push.deny with input as {"agents": [claude(["Bash(npm test:*)", "Bash(git push:*)"], [])]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-can-push"
	f.severity == "high"
	f.property == "review"
	f.file == settings
	f.line == 4
	contains(f.message, "Bash(git push:*)")
}

test_broad_rules_fire if {
	fs := agent_can_push.deny with input as {"agents": [claude(["Bash(git:*)", "Bash(*)", "Bash", "Bash(git push origin main)"], [])]}
	count(fs) == 4
}

test_github_mcp_push_tool_fires if {
	fs := agent_can_push.deny with input as {"agents": [claude(["mcp__github__push_files", "mcp__slack"], [])]}
	count(fs) == 1
	some f in fs
	f.line == 3
}

test_deny_in_user_settings_quiet if {
	count(agent_can_push.deny) == 0 with input as {"agents": [
		claude(["Bash(git:*)"], []),
		{
			"tool": "claude-code", "scope": "user", "profile": "", "file": "home/dev/.claude/settings.json", "line": 1,
			"allow": [], "ask": [],
			"deny": [{"value": "Bash(git push:*)", "file": "home/dev/.claude/settings.json", "line": 5}],
		},
	]}
}

test_ask_rule_quiet if {
	count(agent_can_push.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow": [{"value": "Bash(git:*)", "file": settings, "line": 3}],
		"ask": [{"value": "Bash(git push:*)", "file": settings, "line": 6}],
		"deny": [],
	}]}
}

test_narrow_deny_does_not_cover if {
	fs := agent_can_push.deny with input as {"agents": [claude(["Bash(git:*)"], ["Bash(git push origin main)"])]}
	count(fs) == 1
}

test_hardened_quiet if {
	count(agent_can_push.deny) == 0 with input as {"agents": [claude(
		["Bash(git status)", "Bash(git diff:*)", "Bash(git commit:*)", "Bash(git push --dry-run:*)", "Read(**)"],
		["Bash(git push:*)"],
	)]}
}

test_glob_characters_are_literal if {
	count(agent_can_push.deny) == 0 with input as {"agents": [claude(["Bash(npm run [build:*)", "Bash(echo {a,b})", "Bash()"], [])]}
}

test_empty_input_quiet if {
	count(agent_can_push.deny) == 0 with input as {}
}

test_agent_without_lists_quiet if {
	count(agent_can_push.deny) == 0 with input as {"agents": [{"tool": "claude-code"}]}
}

# Claude Code's PowerShell tool runs git too, matched in any case.
test_powershell_git_push_fires if {
	fs := agent_can_push.deny with input as {"agents": [claude(["PowerShell(git push *)", "PowerShell(Git Push:*)", "PowerShell", "PowerShell(git status *)"], [])]}
	count(fs) == 3
	gs := agent_can_push.deny with input as {"agents": [claude(["PowerShell(git push *)"], ["PowerShell(GIT PUSH:*)"])]}
	count(gs) == 0
}

# Claude's "git push *" matches a bare git push too (its one wildcard,
# trailing after a space, is optional): an ask rule so written holds back
# every push Bash(*) would grant; "git push * --force" stays a glob.
test_trailing_wildcard_matches_bare_command if {
	fs := agent_can_push.deny with input as {"agents": [object.union(claude(["Bash(*)"], []), {"ask": [{"value": "Bash(git push *)", "file": settings, "line": 30}]})]}
	count(fs) == 0
	gs := agent_can_push.deny with input as {"agents": [object.union(claude(["Bash(*)"], []), {"ask": [{"value": "Bash(git push * --force)", "file": settings, "line": 30}]})]}
	count(gs) == 1
}

# OpenCode's bash patterns, as the collector names them: bash for every
# command, bash(git *) for one pattern.
test_opencode_bash_rules if {
	fs := agent_can_push.deny with input as {"agents": [object.union(claude(["bash(git *)", "bash", "bash(git status *)"], []), {"tool": "opencode"})]}
	count(fs) == 2
	gs := agent_can_push.deny with input as {"agents": [object.union(claude(["bash(git *)"], ["bash(git push *)"]), {"tool": "opencode"})]}
	count(gs) == 0
}

# --- a workflow's agent: the token decides whether a push can succeed -------

wf := ".github/workflows/review.yml"

wf_agent := {
	"tool": "claude-code", "scope": "workflow", "profile": "", "context": "workflow \"Review\" job \"review\"",
	"file": wf, "line": 30,
	"allow": [{"value": "Bash", "file": wf, "line": 40}], "deny": [], "ask": [],
}

model_key := {"name": "CLAUDE_CODE_OAUTH_TOKEN", "via": "input", "to": "claude_code_oauth_token", "model_key": true, "file": wf, "line": 32}

job_token := {"name": "GITHUB_TOKEN", "via": "input", "to": "github_token", "model_key": false, "file": wf, "line": 33}

wf_doc(write, secrets, inputs) := {"agents": [wf_agent], "workflows": [{
	"name": "Review", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "review", "file": wf, "line": 10, "runs_agent": true, "effective_write": write,
		"agent_steps": [{"uses": "anthropics/claude-code-action@v1", "tool": "claude-code", "file": wf, "line": 30, "secrets": secrets, "inputs": inputs}],
	}],
}]}

given := {"github_token": {"value": "${{ github.token }}", "file": wf, "line": 33}}

test_workflow_read_only_token_quiet if {
	count(agent_can_push.deny) == 0 with input as wf_doc(["pull-requests", "id-token"], [model_key, job_token], given)
}

test_workflow_contents_write_fires if {
	count(agent_can_push.deny) == 1 with input as wf_doc(["contents"], [model_key, job_token], given)
}

# permissions unset: the repository default may be write
test_workflow_default_permissions_fires if {
	count(agent_can_push.deny) == 1 with input as wf_doc(["default"], [model_key, job_token], given)
}

test_workflow_default_read_quiet if {
	d := object.union(wf_doc(["default"], [model_key, job_token], given), {"repository": {"actions": {"default_permissions": "read"}}})
	count(agent_can_push.deny) == 0 with input as d
}

test_workflow_pat_fires if {
	pat := {"name": "BOT_PAT", "via": "step-env", "to": "GH_TOKEN", "model_key": false, "file": wf, "line": 35}
	count(agent_can_push.deny) == 1 with input as wf_doc([], [model_key, job_token, pat], given)
}

test_workflow_app_token_with_contents_fires if {
	app := {"name": "steps.app.outputs.token", "via": "input", "to": "github_token", "model_key": false, "app": {"step": "app", "scoped": true, "write": ["contents"]}, "file": wf, "line": 33}
	count(agent_can_push.deny) == 1 with input as wf_doc([], [model_key, app], given)
}

test_workflow_app_token_without_contents_quiet if {
	app := {"name": "steps.app.outputs.token", "via": "input", "to": "github_token", "model_key": false, "app": {"step": "app", "scoped": true, "write": ["pull-requests"]}, "file": wf, "line": 33}
	count(agent_can_push.deny) == 0 with input as wf_doc([], [model_key, app], given)
}

test_workflow_unscoped_app_token_fires if {
	app := {"name": "steps.app.outputs.token", "via": "input", "to": "github_token", "model_key": false, "app": {"step": "app", "scoped": false, "write": []}, "file": wf, "line": 33}
	count(agent_can_push.deny) == 1 with input as wf_doc([], [model_key, app], given)
}

# without github_token, claude-code-action uses the Claude app's token
test_workflow_action_own_token_fires if {
	count(agent_can_push.deny) == 1 with input as wf_doc(["id-token"], [model_key], {})
}

test_workflow_inherited_secrets_fire if {
	count(agent_can_push.deny) == 1 with input as wf_doc([], [{"name": "*", "via": "inherit", "model_key": false, "file": wf, "line": 12}], given)
}
