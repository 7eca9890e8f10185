package rules.agent_host_escape_allowed_test

import data.rules.agent_host_escape_allowed

rule(v) := {"value": v, "file": ".claude/settings.json", "line": 6}

claude(allow, ask) := {"agents": [{
	"tool": "claude-code", "scope": "project", "file": ".claude/settings.json", "line": 1,
	"allow": [rule(v) | some v in allow], "deny": [], "ask": [rule(v) | some v in ask],
}]}

fires(v) if {
	fs := agent_host_escape_allowed.deny with input as claude([v], [])
	count(fs) == 1
}

quiet(v) if {
	fs := agent_host_escape_allowed.deny with input as claude([v], [])
	count(fs) == 0
}

test_runtimes_clusters_ssh_fire if {
	fires("Bash(docker:*)")
	fires("Bash(docker run:*)")
	fires("Bash(docker compose up:*)")
	fires("Bash(docker container run:*)")
	fires("Bash(podman:*)")
	fires("Bash(sudo docker:*)")
	fires("Bash(kubectl:*)")
	fires("Bash(kubectl exec:*)")
	fires("Bash(kubectl apply:*)")
	fires("Bash(ssh:*)")
	fires("Bash(ssh build-host:*)")
	fires("Bash(docker -H tcp://builder:2375:*)")
	fires("Bash(docker context:*)")
}

test_message if {
	fs := agent_host_escape_allowed.deny with input as claude(["Bash(docker:*)"], [])
	some f in fs
	f.rule_id == "agent-host-escape-allowed"
	f.severity == "high"
	f.property == "disposable"
	f.line == 6
	contains(f.message, "allows \"Bash(docker:*)\" without a prompt: docker starts and enters containers, which can mount the host and outlive the task")
}

test_read_only_subcommands_quiet if {
	quiet("Bash(docker ps:*)")
	quiet("Bash(docker logs:*)")
	quiet("Bash(docker compose ps:*)")
	quiet("Bash(docker container ls:*)")
	quiet("Bash(kubectl describe:*)")
	quiet("Bash(kubectl get:*)")
	quiet("Bash(docker run --rm hello-world)")
	quiet("Bash(docker --version:*)")
	quiet("Bash(docker -v:*)")
	quiet("Bash(docker context ls:*)")
	quiet("Bash(docker context inspect:*)")
	# Bare Bash is agent-arbitrary-execution-allowed's.
	quiet("Bash")
}

test_ask_rule_holds_it_back if {
	fs := agent_host_escape_allowed.deny with input as claude(["Bash(docker:*)"], ["Bash(docker:*)"])
	count(fs) == 0
}
