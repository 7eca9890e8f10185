package rules.workflow_auto_merge_test

import data.rules.workflow_auto_merge

wf := ".github/workflows/claude.yml"

test_gh_pr_merge_auto_fires if {
	fs := workflow_auto_merge.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{
			"id": "claude", "file": wf, "line": 9, "runs_agent": true,
			"auto_merge": [{"value": "gh pr merge --auto --squash \"$PR\"", "file": wf, "line": 30}],
		}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workflow-auto-merge"
	f.severity == "critical"
	f.property == "review"
	f.file == wf
	f.line == 30
	contains(f.message, "gh pr merge --auto")
}

test_long_step_text_is_shortened if {
	fs := workflow_auto_merge.deny with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1,
		"jobs": [{"id": "merge", "file": wf, "line": 9, "auto_merge": [{"value": "gh pr merge --auto --squash --subject \"chore: update generated files from the nightly agent run\" \"$PR_URL\"", "file": wf, "line": 12}]}],
	}]}
	some f in fs
	contains(f.message, "…")
}

test_no_merge_quiet if {
	count(workflow_auto_merge.deny) == 0 with input as {"workflows": [{
		"name": "Claude", "file": wf, "line": 1, "runs_agent": true,
		"jobs": [{"id": "claude", "file": wf, "line": 9, "runs_agent": true, "auto_merge": []}],
	}]}
}

test_empty_input_quiet if {
	count(workflow_auto_merge.deny) == 0 with input as {}
}
