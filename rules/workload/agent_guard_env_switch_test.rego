package rules.agent_guard_env_switch_test

import data.rules.agent_guard_env_switch as r

f := ".devcontainer/devcontainer.json"

dc(env) := {"workloads": [{"id": concat("", ["devcontainer:", f]), "source": "devcontainer", "name": "Codex Dev", "file": f, "line": 1, "env": env}]}

test_codex_no_sandbox_fires if {
	fs := r.deny with input as dc([{"name": "CODEX_UNSAFE_ALLOW_NO_SANDBOX", "switch": "codex-no-sandbox", "file": f, "line": 33}])
	count(fs) == 1
	some x in fs
	x.rule_id == "agent-guard-env-switch"
	x.severity == "medium"
	x.line == 33
	contains(x.message, "sets CODEX_UNSAFE_ALLOW_NO_SANDBOX: where Codex cannot set up its own sandbox (inside a container) it runs the agent's commands with none")
}

test_image_env_fires if {
	doc := {"images": [{"file": "Dockerfile", "line": 1, "env": [{"name": "SANDBOX_USE_HOST_NETWORK", "switch": "openhands-host-network", "file": "Dockerfile", "line": 7}]}]}
	some x in r.deny with input as doc
	contains(x.message, "image Dockerfile sets SANDBOX_USE_HOST_NETWORK: OpenHands runs")
}

test_no_switch_and_platform_quiet if {
	count(r.deny) == 0 with input as dc([{"name": "CODEX_UNSAFE_ALLOW_NO_SANDBOX", "file": f, "line": 33}])
	p := json.patch(dc([{"name": "X", "switch": "codex-no-sandbox", "file": f, "line": 33}]), [{"op": "add", "path": "/workloads/0/judged", "value": false}])
	count(r.deny) == 0 with input as p
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
