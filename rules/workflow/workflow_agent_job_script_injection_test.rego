package rules.workflow_agent_job_script_injection_test

import data.rules.workflow_agent_job_script_injection as r

wf := ".github/workflows/dedupe.yml"

doc(trigger, runs_agent, injections) := {"workflows": [{
	"name": "Dedupe", "file": wf, "line": 1, "runs_agent": true,
	"triggers": [{"value": trigger, "file": wf, "line": 3}],
	"jobs": [{
		"id": "gather", "file": wf, "line": 8, "runs_agent": runs_agent,
		"injections": injections,
	}],
}]}

inj(expr, source, line) := {"expr": expr, "source": source, "file": wf, "line": line}

test_issue_body_in_agent_job_fires if {
	fs := r.deny with input as doc("issues", true, [inj("github.event.issue", "untrusted", 20)])
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-job-script-injection"
	f.property == "credentials"
	f.severity == "medium"
	f.line == 20
	contains(f.message, `job "gather" expands ${{ github.event.issue }}, text an outsider writes, into a script`)
}

test_head_ref_on_pull_request_fires if {
	count(r.deny) == 1 with input as doc("pull_request_target", true, [inj("github.head_ref", "untrusted", 12)])
	count(r.deny) == 1 with input as doc("pull_request_review_comment", true, [inj("github.event.pull_request.head.ref", "untrusted", 12)])
}

# A plain pull_request runs the pull request's own workflow; an expression
# no trigger fills (pull request text on issues) is empty.
test_plain_pull_request_and_unfilled_quiet if {
	count(r.deny) == 0 with input as doc("pull_request", true, [inj("github.event.pull_request.title", "untrusted", 12)])
	count(r.deny) == 0 with input as doc("pull_request", true, [inj("github.event", "untrusted", 12)])
	count(r.deny) == 0 with input as doc("issues", true, [inj("github.event.pull_request.body", "untrusted", 12)])
}

test_whole_event_on_outsider_trigger_fires if {
	count(r.deny) == 1 with input as doc("issue_comment", true, [inj("github.event", "untrusted", 12)])
}

# Only outsiders' events count; a job without an agent is another tool's
# business; the agent's own output has its rule.
test_push_non_agent_job_and_agent_output_quiet if {
	count(r.deny) == 0 with input as doc("push", true, [inj("github.event.head_commit.message", "untrusted", 20)])
	count(r.deny) == 0 with input as doc("issues", false, [inj("github.event.issue.title", "untrusted", 20)])
	count(r.deny) == 0 with input as doc("issues", true, [inj("steps.codex.outputs.final-message", "agent", 20)])
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}

# A job that admits only this repository's pull requests and runs: their
# heads are written by someone with write access; issue text still counts.
test_same_repo_only_job_quiet_for_heads if {
	same := json.patch(doc("workflow_run", true, [inj("github.event.workflow_run.head_branch", "untrusted", 12)]), [{"op": "add", "path": "/workflows/0/jobs/0/same_repo_only", "value": true}])
	count(r.deny) == 0 with input as same
	issue := json.patch(doc("issues", true, [inj("github.event.issue.title", "untrusted", 12)]), [{"op": "add", "path": "/workflows/0/jobs/0/same_repo_only", "value": true}])
	count(r.deny) == 1 with input as issue
}

# A step output named for the issue's text, whatever the trigger: the
# issue it fetched is an outsider's.
fetched(triggers) := {"workflows": [{
	"name": "Fix", "file": ".github/workflows/fix.yml", "line": 1, "runs_agent": true,
	"triggers": [{"value": t, "file": ".github/workflows/fix.yml", "line": 2} | some t in triggers],
	"jobs": [{
		"id": "fix", "file": ".github/workflows/fix.yml", "line": 5, "runs_agent": true,
		"injections": [{"expr": "steps.get-issue.outputs.issue-body", "source": "untrusted", "file": ".github/workflows/fix.yml", "line": 12}],
	}],
}]}

test_outsider_step_output if {
	count(r.deny) == 1 with input as fetched(["issues"])
	count(r.deny) == 1 with input as fetched(["workflow_dispatch"])
}

test_into_agent_args_says_so if {
	fs := r.deny with input as doc("issue_comment", true, [object.union(inj("github.event.comment.body", "untrusted", 14), {"into": "args"})])
	some f in fs
	contains(f.message, "into the agent's command-line arguments: it can add options")
}
