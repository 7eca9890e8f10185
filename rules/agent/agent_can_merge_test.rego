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

# --- a workflow's agent: the token decides what can succeed -------------------

wf := ".github/workflows/review.yml"

wf_agent(allow) := {
	"tool": "claude-code", "scope": "workflow", "profile": "", "context": "workflow \"Review\" job \"review\"",
	"file": wf, "line": 30,
	"allow": [{"value": v, "file": wf, "line": 40} | some v in allow], "deny": [], "ask": [],
}

wf_doc(allow, write, secrets) := {"agents": [wf_agent(allow)], "workflows": [{
	"name": "Review", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "review", "file": wf, "line": 10, "runs_agent": true, "effective_write": write,
		"agent_steps": [{
			"uses": "anthropics/claude-code-action@v1", "tool": "claude-code", "file": wf, "line": 30,
			"secrets": secrets, "inputs": {"github_token": {"value": "${{ github.token }}", "file": wf, "line": 33}},
		}],
	}],
}]}

job_token := {"name": "GITHUB_TOKEN", "via": "input", "to": "github_token", "model_key": false, "file": wf, "line": 33}

# contents: read, pull-requests: read: neither merging nor approving works
test_workflow_read_only_quiet if {
	count(agent_can_merge.deny) == 0 with input as wf_doc(["Bash"], ["id-token"], [job_token])
}

# pull-requests: write without contents: approval only, and only if Actions may approve: medium
test_workflow_approve_only_medium if {
	fs := agent_can_merge.deny with input as wf_doc(["Bash"], ["pull-requests"], [job_token])
	count(fs) == 1
	some f in fs
	f.severity == "medium"
	contains(f.message, "(gh pr review --approve)")
	contains(f.message, "if the repository lets GitHub Actions approve them")
}

test_workflow_approve_only_actions_may_approve_high if {
	d := object.union(wf_doc(["Bash"], ["pull-requests"], [job_token]), {"repository": {"actions": {"can_approve_pull_requests": true}}})
	fs := agent_can_merge.deny with input as d
	some f in fs
	f.severity == "high"
	contains(f.message, "the agent can approve pull requests (merging needs contents write")
}

test_workflow_approve_only_actions_may_not_approve_quiet if {
	d := object.union(wf_doc(["Bash"], ["pull-requests"], [job_token]), {"repository": {"actions": {"can_approve_pull_requests": false}}})
	count(agent_can_merge.deny) == 0 with input as d
}

# a merge-only allow with a token that cannot write contents
test_workflow_merge_only_without_contents_quiet if {
	count(agent_can_merge.deny) == 0 with input as wf_doc(["Bash(gh pr merge:*)"], ["pull-requests"], [job_token])
}

test_workflow_contents_write_fires_high if {
	fs := agent_can_merge.deny with input as wf_doc(["Bash"], ["contents", "pull-requests"], [job_token])
	some f in fs
	f.severity == "high"
	contains(f.message, "gh pr merge")
	contains(f.message, "the agent can merge or approve pull requests")
}

test_workflow_pat_fires_high if {
	pat := {"name": "BOT_PAT", "via": "step-env", "to": "GH_TOKEN", "model_key": false, "file": wf, "line": 35}
	fs := agent_can_merge.deny with input as wf_doc(["Bash"], [], [job_token, pat])
	some f in fs
	f.severity == "high"
	contains(f.message, "gh pr merge")
}
