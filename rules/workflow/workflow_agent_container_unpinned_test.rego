package rules.workflow_agent_container_unpinned_test

import data.rules.workflow_agent_container_unpinned as r

wf := ".github/workflows/solve.yml"

doc(image, runs_agent) := {"workflows": [{
	"name": "Solve", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "solve", "file": wf, "line": 8, "runs_agent": runs_agent,
		"container": {"image": {"value": image, "file": wf, "line": 12}, "file": wf, "line": 11, "privileges": []},
	}],
}]}

test_latest_and_untagged_fire if {
	fs := r.deny with input as doc("ghcr.io/acme/agent:latest", true)
	count(fs) == 1
	some x in fs
	x.rule_id == "workflow-agent-container-unpinned"
	x.property == "review"
	x.severity == "low"
	x.line == 12
	contains(x.message, `job "solve" runs the agent in container image ghcr.io/acme/agent:latest, a moving tag`)
	some y in r.deny with input as doc("localhost:5000/agent", true)
	contains(y.message, "with no tag (latest)")
}

test_version_digest_expression_and_non_agent_job_quiet if {
	count(r.deny) == 0 with input as doc("localhost:5000/agent:1.4", true)
	count(r.deny) == 0 with input as doc("ghcr.io/acme/agent@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", true)
	count(r.deny) == 0 with input as doc("${{ matrix.image }}", true)
	count(r.deny) == 0 with input as doc("node:latest", false)
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
