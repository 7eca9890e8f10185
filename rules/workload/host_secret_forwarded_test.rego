package rules.host_secret_forwarded_test

import data.rules.host_secret_forwarded

dc := ".devcontainer/devcontainer.json"

test_devcontainer_local_env_token_fires if {
	fs := host_secret_forwarded.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"env": [{"name": "GITHUB_TOKEN", "from_host": "GITHUB_TOKEN", "sensitive_name": true, "file": dc, "line": 11}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "host-secret-forwarded"
	f.severity == "high"
	f.property == "credentials"
	f.file == dc
	f.line == 11
	f.message == "devcontainer dev forwards the host's GITHUB_TOKEN into GITHUB_TOKEN"
}

test_bland_name_sensitive_host_var_fires if {
	fs := host_secret_forwarded.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"env": [{"name": "GH", "from_host": "GH_TOKEN", "sensitive_name": false, "host_sensitive": true, "file": "compose.yaml", "line": 8}],
	}]}
	count(fs) == 1
}

# A host variable whose name holds a credential word but says it is a
# setting about one (a session's lifetime) is not a secret.
test_session_ttl_quiet if {
	count(host_secret_forwarded.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "app",
		"env": [{"name": "SESSION_TTL", "from_host": "SESSION_TTL", "sensitive_name": false, "host_sensitive": false, "file": "compose.yaml", "line": 8}],
	}]}
}

# The password of the agent's own web terminal guards the way in to the
# sandbox: quiet. The GitHub token beside it still fires.
test_inbound_server_password_quiet if {
	fs := host_secret_forwarded.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"env": [
			{"name": "TTYD_PASS", "from_host": "TTYD_PASS", "sensitive_name": true, "host_sensitive": true, "file": "compose.yaml", "line": 8},
			{"name": "GH_TOKEN", "from_host": "GH_TOKEN", "sensitive_name": true, "host_sensitive": true, "file": "compose.yaml", "line": 9},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 9
}

# The app's own session key, and a secret whose default is a placeholder,
# are the application's settings: quiet. A vendor's JWT secret under its
# own name (SUPABASE_JWT_SECRET) opens that vendor's project: it fires.
test_app_own_and_weak_default_quiet if {
	fs := host_secret_forwarded.deny with input as {"workloads": [{
		"source": "compose", "name": "app",
		"env": [
			{"name": "JWT_SECRET", "from_host": "JWT_SECRET", "sensitive_name": true, "host_sensitive": true, "file": "compose.yaml", "line": 8},
			{"name": "DB_PASSWORD", "from_host": "DB_PASSWORD", "sensitive_name": true, "host_sensitive": true, "weak": true, "file": "compose.yaml", "line": 9},
			{"name": "SUPABASE_JWT_SECRET", "from_host": "SUPABASE_JWT_SECRET", "sensitive_name": true, "host_sensitive": true, "file": "compose.yaml", "line": 10},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 10
}

test_hardened_quiet if {
	count(host_secret_forwarded.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"env": [
			{"name": "TZ", "from_host": "TZ", "sensitive_name": false, "file": "compose.yaml", "line": 8},
			{"name": "API_TOKEN", "from_secret": true, "sensitive_name": true, "file": "compose.yaml", "line": 9},
			{"name": "LOG_LEVEL", "sensitive_name": false, "file": "compose.yaml", "line": 10},
		],
	}]}
}

test_empty_input_quiet if {
	count(host_secret_forwarded.deny) == 0 with input as {}
}

test_initialize_command_writes_host_token_fires if {
	w := {"source": "devcontainer", "name": "dev", "judged": true, "commands": [
		{"phase": "initialize", "on_host": true, "text": "gh auth token > .devcontainer/.token", "host_secret": "gh auth token into .devcontainer/.token", "file": ".devcontainer/devcontainer.json", "line": 5},
		{"phase": "postCreate", "on_host": false, "text": "npm ci", "file": ".devcontainer/devcontainer.json", "line": 6},
	]}
	fs := host_secret_forwarded.deny with input as {"workloads": [w]}
	count(fs) == 1
	some f in fs
	f.line == 5
	contains(f.message, "devcontainer dev's initialize command runs on the host and writes its credential (gh auth token into .devcontainer/.token) into the workspace")
	# a workload that is not judged (not the agent's) is not reported
	count(host_secret_forwarded.deny) == 0 with input as {"workloads": [object.union(w, {"judged": false})]}
}
