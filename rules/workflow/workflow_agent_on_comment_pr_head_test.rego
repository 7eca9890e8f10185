package rules.workflow_agent_on_comment_pr_head_test

import data.rules.workflow_agent_on_comment_pr_head

wf := ".github/workflows/agent.yml"

gemini := {"uses": "google-github-actions/run-gemini-cli@v0", "tool": "gemini", "file": wf, "line": 30}

claude := {"uses": "anthropics/claude-code-action@v1", "tool": "claude-code", "file": wf, "line": 30}

co(extra) := object.union({"uses": "actions/checkout@v4", "persist_credentials": true, "token": "", "ref": "", "file": wf, "line": 14}, extra)

doc(trigger, job) := {"workflows": [{
	"name": "Agent", "file": wf, "line": 1, "runs_agent": true,
	"triggers": [{"value": trigger, "file": wf, "line": 3}],
	"jobs": [object.union({"id": "agent", "file": wf, "line": 10, "runs_agent": true, "agent_steps": [gemini], "checkouts": [], "pr_checkouts": []}, job)],
}]}

pr_head := co({"ref": "refs/pull/${{ github.event.issue.number }}/head"})

test_pull_ref_fires_critical if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head]})
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-on-comment-pr-head"
	f.severity == "critical"
	f.property == "review"
	f.line == 14
	contains(f.message, "refs/pull/${{ github.event.issue.number }}/head")
	contains(f.message, "anyone comments")
}

# the number comes from a step that read the comment's pull request
test_step_output_number_fires if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [co({"ref": "refs/pull/${{ steps.get_context.outputs.issue_number }}/merge"})]})
	count(fs) == 1
}

test_looked_up_head_sha_fires if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [co({"ref": "${{ fromJSON(steps.pr.outputs.result).head.sha }}"})]})
	count(fs) == 1
}

test_head_repository_fires if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [co({
		"repository": "${{ steps.pr.outputs.head_repo }}",
		"ref": "${{ steps.pr.outputs.branch }}",
	})]})
	some f in fs
	contains(f.message, "repository ${{ steps.pr.outputs.head_repo }}")
}

test_gh_pr_checkout_before_agent_fires if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"pr_checkouts": [{"value": "gh pr checkout 12", "file": wf, "line": 20}]})
	count(fs) == 1
	some f in fs
	f.line == 20
}

test_gh_pr_checkout_after_agent_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("issue_comment", {"pr_checkouts": [{"value": "gh pr checkout 12", "file": wf, "line": 40}]})
}

# a maintainer's comment is still enough: lowered to high, not quiet
test_author_checked_high if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head], "author_checked": true})
	count(fs) == 1
	some f in fs
	f.severity == "high"
	contains(f.message, "a maintainer comments")
}

test_claude_action_write_check_high if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head], "agent_steps": [claude]})
	some f in fs
	f.severity == "high"
}

test_claude_action_non_write_users_critical if {
	step := object.union(claude, {"allowed_non_write_users": {"value": "*", "file": wf, "line": 33}})
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head], "agent_steps": [step]})
	some f in fs
	f.severity == "critical"
}

test_default_branch_checkout_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("issue_comment", {"checkouts": [co({})]})
}

# empty on issue_comment: the default branch
test_pull_request_event_head_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("issue_comment", {"checkouts": [co({"ref": "${{ github.event.pull_request.head.sha }}"})]})
}

test_pull_request_trigger_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("pull_request", {"checkouts": [pr_head]})
}

# forks' review events run without secrets, as pull_request does
test_review_comment_trigger_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("pull_request_review_comment", {"checkouts": [pr_head]})
}

test_job_without_agent_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("issue_comment", {"checkouts": [pr_head], "runs_agent": false, "agent_steps": []})
}

test_same_repo_only_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as doc("issue_comment", {"checkouts": [pr_head], "same_repo_only": true})
}

test_approval_gated_quiet if {
	d := doc("issue_comment", {"checkouts": [pr_head], "environment": {"value": "agent", "file": wf, "line": 11}})
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as object.union(d, {"repository": {"environments": {"agent": {"required_reviewers": 1}}}})
}

test_empty_input_quiet if {
	count(workflow_agent_on_comment_pr_head.deny) == 0 with input as {}
}

codex := {"uses": "openai/codex-action@v1", "tool": "codex", "file": wf, "line": 30, "inputs": {}}

test_codex_action_write_check_high if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head], "agent_steps": [codex]})
	some f in fs
	f.severity == "high"
}

test_codex_action_allow_users_critical if {
	step := object.union(codex, {"inputs": {"allow-users": {"value": "*", "file": wf, "line": 34}}})
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {"checkouts": [pr_head], "agent_steps": [step]})
	some f in fs
	f.severity == "critical"
}

# one job, one finding: at its first fetch of the pull request, naming each
test_one_finding_per_job if {
	fs := workflow_agent_on_comment_pr_head.deny with input as doc("issue_comment", {
		"checkouts": [pr_head],
		"pr_checkouts": [{"value": "git fetch origin +refs/pull/$PR/head", "file": wf, "line": 20}],
	})
	count(fs) == 1
	some f in fs
	f.line == 14
	contains(f.message, "(refs/pull/${{ github.event.issue.number }}/head; git fetch origin +refs/pull/$PR/head)")
}
