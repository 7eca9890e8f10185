package rules.live_ssh_agent_forwarded_test

import data.rules.live_ssh_agent_forwarded as r

test_agent_fires if {
	c := {"kind": "ssh-agent", "source": "ssh-agent", "name": "SSH_AUTH_SOCK", "note": "agent socket at /tmp/a; holds 2 key(s)", "file": "live/credentials", "line": 1}
	some f in r.deny with input as {"live": {"credentials": [c]}}
	f.message == "an SSH agent is forwarded into the sandbox through SSH_AUTH_SOCK"
}

test_key_file_quiet if {
	c := {"kind": "ssh-private-key", "source": "file", "name": "/root/.ssh/id_ed25519", "file": "live/credentials", "line": 1}
	count(r.deny) == 0 with input as {"live": {"credentials": [c]}}
}
