package rules.workflow_agent_container_privileged_test

import data.rules.workflow_agent_container_privileged

wf := ".github/workflows/agent.yml"

doc(privileges, runs_agent) := {"workflows": [{
	"name": "Agent", "file": wf, "line": 1, "runs_agent": true,
	"jobs": [{
		"id": "agent", "file": wf, "line": 8, "runs_agent": runs_agent,
		"container": {"image": {"value": "node:22", "file": wf, "line": 11}, "file": wf, "line": 10, "privileges": privileges},
	}],
}]}

p(v, line) := {"value": v, "file": wf, "line": line}

test_privileged_and_socket_fire if {
	fs := workflow_agent_container_privileged.deny with input as doc([p("--privileged", 12), p("volume /var/run/docker.sock", 14)], true)
	count(fs) == 2
	{f.line | some f in fs} == {12, 14}
	some f in fs
	f.rule_id == "workflow-agent-container-privileged"
	f.severity == "high"
	f.property == "disposable"
	contains(f.message, "with --privileged")
}

test_dangerous_cap_fires_harmless_cap_quiet if {
	fs := workflow_agent_container_privileged.deny with input as doc([p("--cap-add SYS_ADMIN", 12), p("--cap-add NET_BIND_SERVICE", 12)], true)
	count(fs) == 1
	some f in fs
	contains(f.message, "SYS_ADMIN")
}

test_plain_container_quiet if {
	count(workflow_agent_container_privileged.deny) == 0 with input as doc([], true)
}

test_job_without_agent_quiet if {
	count(workflow_agent_container_privileged.deny) == 0 with input as doc([p("--privileged", 12)], false)
}

test_empty_input_quiet if {
	count(workflow_agent_container_privileged.deny) == 0 with input as {}
}
