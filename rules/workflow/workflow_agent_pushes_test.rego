package rules.workflow_agent_pushes_test

import data.rules.workflow_agent_pushes

wf := ".github/workflows/agent.yml"

test_git_push_in_agent_job_fires if {
	fs := workflow_agent_pushes.deny with input as {"workflows": [{
		"name": "Nightly agent", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "agent", "file": wf, "line": 9, "runs_agent": true,
			"pushes": [{"value": "git push origin HEAD:main", "file": wf, "line": 40}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-agent-pushes"
	f.severity == "medium"
	f.property == "review"
	f.file == wf
	f.line == 40
	contains(f.message, "git push origin HEAD:main")
}

test_push_in_other_job_quiet if {
	count(workflow_agent_pushes.deny) == 0 with input as {"workflows": [{
		"name": "Nightly agent", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [
			{"id": "agent", "file": wf, "line": 9, "runs_agent": true, "pushes": []},
			{"id": "docs", "file": wf, "line": 30, "runs_agent": false, "pushes": [{"value": "git push", "file": wf, "line": 40}]},
		],
	}]}
}

test_empty_input_quiet if {
	count(workflow_agent_pushes.deny) == 0 with input as {}
}

# The job opens a pull request from what it pushed: the push goes to the
# branch a person reviews. Unless it names the default branch or forces.
pr_job(pushes) := {"workflows": [{
	"name": "Agent", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "agent", "file": wf, "line": 9, "runs_agent": true,
		"pushes": [{"value": v, "file": wf, "line": 40} | some v in pushes],
		"opens_pr": [{"value": "gh pr create --fill --head \"$BRANCH\"", "file": wf, "line": 44}],
	}],
}]}

test_push_then_pull_request_quiet if {
	count(workflow_agent_pushes.deny) == 0 with input as pr_job(["git push origin \"$BRANCH_NAME\"", "git push -u origin HEAD"])
	count(workflow_agent_pushes.deny) == 3 with input as pr_job(["git push origin HEAD:main", "git push --force origin \"$BRANCH\"", "git push origin main"])
}
