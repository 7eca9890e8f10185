package rules.host_command_hook_test

import data.rules.host_command_hook

dc := ".devcontainer/devcontainer.json"

test_initialize_command_fires if {
	fs := host_command_hook.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"commands": [
			{"phase": "initialize", "on_host": true, "text": "./scripts/prepare.sh", "file": dc, "line": 4},
			{"phase": "postCreate", "on_host": false, "text": "npm ci", "file": dc, "line": 5},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "host-command-hook"
	f.severity == "high"
	f.file == dc
	f.line == 4
	contains(f.message, "initialize command on the host")
	not contains(f.message, "prepare.sh")
}

test_hardened_quiet if {
	count(host_command_hook.deny) == 0 with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"commands": [{"phase": "onCreate", "on_host": false, "text": "./scripts/prepare.sh", "file": dc, "line": 4}],
	}]}
}

test_empty_input_quiet if {
	count(host_command_hook.deny) == 0 with input as {}
}

# Making the directories a bind mount needs runs nothing of the repository's:
# quiet. A script, a redirection or a command substitution beside it fires.
test_inert_command_quiet if {
	inert := ["mkdir -p ${localEnv:HOME}/.claude", "mkdir -p a b && touch c/.keep; echo ready"]
	live := ["mkdir -p x && ./scripts/prepare.sh", "echo $(gh auth token)", "echo ok > ~/.bashrc", "bash .devcontainer/init.sh", "test -d x || make init"]
	every t in inert {
		count(host_command_hook.deny) == 0 with input as {"workloads": [{
			"source": "devcontainer", "name": "dev",
			"commands": [{"phase": "initialize", "on_host": true, "text": t, "file": dc, "line": 4}],
		}]}
	}
	every t in live {
		count(host_command_hook.deny) == 1 with input as {"workloads": [{
			"source": "devcontainer", "name": "dev",
			"commands": [{"phase": "initialize", "on_host": true, "text": t, "file": dc, "line": 4}],
		}]}
	}
}
