package rules.agent_can_merge_test

import data.rules.agent_can_merge

settings := ".claude/settings.json"

claude(allow, deny) := {
	"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": i + 3} | some i, v in allow],
	"deny": [{"value": v, "file": settings, "line": i + 20} | some i, v in deny],
	"ask": [],
}

test_gh_pr_merge_fires if {
	fs := agent_can_merge.deny with input as {"agents": [claude(["Bash(gh pr view:*)", "Bash(gh pr merge:*)"], [])]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-can-merge"
	f.severity == "high"
	f.property == "review"
	f.file == settings
	f.line == 4
}

test_broad_and_specific_rules_fire if {
	fs := agent_can_merge.deny with input as {"agents": [claude(
		[
			"Bash(gh:*)",
			"Bash(*)",
			"Bash(gh pr review 12 --approve)",
			"Bash(gh api repos/acme/app/pulls/12/merge -X PUT)",
			"mcp__github",
			"mcp__gh__merge_pull_request",
		],
		[],
	)]}
	count(fs) == 6
}

test_partial_deny_still_fires_for_the_rest if {
	fs := agent_can_merge.deny with input as {"agents": [claude(["Bash(gh:*)"], ["Bash(gh pr merge:*)"])]}
	count(fs) == 1
	some f in fs
	not contains(f.message, "gh pr merge")
	contains(f.message, "(gh api …/merge, gh pr review --approve)")
}

test_full_deny_quiet if {
	count(agent_can_merge.deny) == 0 with input as {"agents": [claude(
		["Bash(gh:*)", "mcp__github"],
		["Bash(gh pr merge:*)", "Bash(gh pr review:*)", "Bash(gh api:*)", "mcp__github"],
	)]}
}

test_hardened_quiet if {
	count(agent_can_merge.deny) == 0 with input as {"agents": [claude(
		["Bash(gh pr view:*)", "Bash(gh pr create:*)", "Bash(gh pr review 3 --comment)", "mcp__github__get_pull_request", "mcp__slack"],
		[],
	)]}
}

test_empty_input_quiet if {
	count(agent_can_merge.deny) == 0 with input as {}
}
