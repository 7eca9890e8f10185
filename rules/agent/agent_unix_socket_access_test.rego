package rules.agent_unix_socket_access_test

import data.rules.agent_unix_socket_access

settings := ".claude/settings.json"

test_docker_socket_fires if {
	fs := agent_unix_socket_access.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"unix_sockets": [
			{"value": "/var/run/docker.sock", "file": settings, "line": 12},
			{"value": "/tmp/ssh-agent.sock", "file": settings, "line": 13},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-unix-socket-access"
	f.severity == "high"
	f.property == "disposable"
	f.file == settings
	f.line == 12
	contains(f.message, "docker.sock")
}

test_all_sockets_fires if {
	fs := agent_unix_socket_access.deny with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow_all_unix_sockets": {"value": true, "file": settings, "line": 11},
	}]}
	count(fs) == 1
	some f in fs
	f.line == 11
}

test_hardened_quiet if {
	count(agent_unix_socket_access.deny) == 0 with input as {"agents": [{
		"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
		"allow_all_unix_sockets": {"value": false, "file": settings, "line": 11},
		"unix_sockets": [{"value": "/tmp/ssh-agent.sock", "file": settings, "line": 13}],
	}]}
}

test_empty_input_quiet if {
	count(agent_unix_socket_access.deny) == 0 with input as {}
}
