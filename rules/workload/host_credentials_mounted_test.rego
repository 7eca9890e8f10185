package rules.host_credentials_mounted_test

import data.rules.host_credentials_mounted

dc := ".devcontainer/devcontainer.json"

fires(src) if {
	fs := host_credentials_mounted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"mounts": [{"type": "bind", "source": src, "target": "/mnt/x", "file": dc, "line": 9}],
	}]}
	count(fs) == 1
}

test_devcontainer_ssh_fires if {
	fs := host_credentials_mounted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"mounts": [{"type": "bind", "source": "${localEnv:HOME}/.ssh", "target": "/home/vscode/.ssh", "read_only": true, "file": dc, "line": 9}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "host-credentials-mounted"
	f.severity == "high"
	f.property == "credentials"
	f.file == dc
	f.line == 9
	contains(f.message, "SSH keys")
	contains(f.message, "/home/vscode/.ssh")
}

test_source_spellings_fire if {
	fires("~/.ssh")
	fires("${HOME}/.aws")
	fires("$HOME/.aws/credentials")
	fires("${localEnv:HOME}${localEnv:USERPROFILE}/.config/gh")
	fires("/home/u/.kube")
	fires("/home/u/.kube/")
	fires("/root/.ssh")
	fires("/Users/dev/.docker/config.json")
	fires("~/.netrc")
	fires("~/.git-credentials")
	fires("~/.npmrc")
	fires("~/.pypirc")
	fires("~/.gnupg")
	fires("~/.azure")
	fires("~/.config/gcloud")
	fires("~/.codex/auth.json")
	fires("${env:SSH_AUTH_SOCK}")
	fires("/run/host-services/ssh-auth.sock")
}

test_parent_directory_fires if {
	fs := host_credentials_mounted.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"mounts": [{"type": "bind", "source": "~/.config", "target": "/root/.config", "file": "compose.yaml", "line": 14}],
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "GitHub CLI token")
	contains(f.message, "Google Cloud credentials")
}

test_whole_home_fires if {
	fires("${localEnv:HOME}")
	fires("/home")
}

test_hardened_quiet if {
	count(host_credentials_mounted.deny) == 0 with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"mounts": [
			{"type": "bind", "source": "${localWorkspaceFolder}", "target": "/workspace", "file": dc, "line": 9},
			{"type": "bind", "source": "~/.config/nvim", "target": "/home/vscode/.config/nvim", "file": dc, "line": 10},
			{"type": "bind", "source": "/home/u/.sshrc", "target": "/x", "file": dc, "line": 11},
			{"type": "volume", "source": "ssh", "target": "/home/vscode/.ssh", "file": dc, "line": 12},
			{"type": "bind", "source": "/srv/project/.aws-docs", "target": "/docs", "file": dc, "line": 13},
		],
	}]}
}

test_empty_input_quiet if {
	count(host_credentials_mounted.deny) == 0 with input as {}
}

# Files of ~/.ssh that hold no secret are quiet; a key beside them is not.
test_public_ssh_files_quiet if {
	quiet_srcs := ["${localEnv:HOME}/.ssh/known_hosts", "~/.ssh/authorized_keys", "/home/u/.ssh/id_ed25519.pub"]
	every src in quiet_srcs {
		count(host_credentials_mounted.deny) == 0 with input as {"workloads": [{
			"source": "devcontainer", "name": "dev",
			"mounts": [{"type": "bind", "source": src, "target": "/mnt/x", "file": dc, "line": 9}],
		}]}
	}
	fires("~/.ssh/id_ed25519")
	fires("~/.ssh/known_hosts/../id_rsa")
}

# Credentials kept beside the repository, mounted where ssh and gh read them.
test_credential_target_from_another_place if {
	w := {"source": "compose", "name": "agent", "judged": true, "mounts": [
		{"type": "bind", "source": "./git-data/.ssh", "target": "/home/node/.ssh", "file": "docker-compose.yml", "line": 7},
		{"type": "bind", "source": "./git-data/gh", "target": "/root/.config/gh", "file": "docker-compose.yml", "line": 8},
		{"type": "bind", "source": "./src", "target": "/home/node/app", "file": "docker-compose.yml", "line": 9},
		{"type": "volume", "source": "ssh-keys", "target": "/home/node/.ssh", "file": "docker-compose.yml", "line": 10},
	]}
	fs := host_credentials_mounted.deny with input as {"workloads": [w]}
	count(fs) == 2
	some f in fs
	f.line == 7
	contains(f.message, "mounts host path ./git-data/.ssh at /home/node/.ssh, where the container's tools read SSH keys")
}

# A repository folder kept for the agent's own state, mounted where the
# agent writes its login, holds no host credential; the same layout for
# SSH keys does.
test_repo_folder_for_agent_state_quiet_ssh_fires if {
	ws := [{
		"source": "compose", "name": "agent", "judged": true, "file": "compose.yaml", "line": 1,
		"mounts": [
			{"type": "bind", "source": "./.agent-home/.claude", "target": "/home/node/.claude", "file": "compose.yaml", "line": 8},
			{"type": "bind", "source": "./.agent-home/.codex", "target": "/home/node/.codex", "file": "compose.yaml", "line": 9},
			{"type": "bind", "source": "./secrets/ssh", "target": "/home/node/.ssh", "file": "compose.yaml", "line": 10},
		],
	}]
	fs := host_credentials_mounted.deny with input as {"workloads": ws}
	count(fs) == 1
	some f in fs
	f.line == 10
}

test_host_folder_for_agent_login_fires if {
	ws := [{
		"source": "compose", "name": "agent", "judged": true, "file": "compose.yaml", "line": 1,
		"mounts": [{"type": "bind", "source": "/srv/logins/claude", "target": "/home/node/.claude", "file": "compose.yaml", "line": 8}],
	}]
	count(host_credentials_mounted.deny) == 1 with input as {"workloads": ws}
}
