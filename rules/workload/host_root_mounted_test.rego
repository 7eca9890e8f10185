package rules.host_root_mounted_test

import data.rules.host_root_mounted

test_root_read_write_fires if {
	fs := host_root_mounted.deny with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"mounts": [{"type": "bind", "source": "/", "target": "/host", "read_only": false, "file": "compose.yaml", "line": 12}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "host-root-mounted"
	f.severity == "critical"
	f.file == "compose.yaml"
	f.line == 12
	contains(f.message, "host's / at /host read-write")
}

test_read_only_still_fires_and_says_so if {
	fs := host_root_mounted.deny with input as {"workloads": [{
		"source": "kubernetes", "name": "main",
		"mounts": [{"type": "hostPath", "source": "/var/run/", "target": "/var/run", "read_only": true, "file": "pod.yaml", "line": 30}],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 30
	contains(f.message, "/var/run at /var/run read-only")
}

test_runtime_state_subdir_fires if {
	fs := host_root_mounted.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"mounts": [{"type": "bind", "source": "/var/lib/docker/volumes", "target": "/v", "file": ".devcontainer/devcontainer.json", "line": 7}],
	}]}
	count(fs) == 1
}

test_hardened_quiet if {
	count(host_root_mounted.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"mounts": [
			{"type": "bind", "source": "/home/ci/work/repo", "target": "/workspace", "file": "compose.yaml", "line": 12},
			{"type": "bind", "source": "/etc/ssl/certs", "target": "/etc/ssl/certs", "read_only": true, "file": "compose.yaml", "line": 13},
			{"type": "volume", "source": "etc", "target": "/etc/app", "file": "compose.yaml", "line": 14},
			{"type": "tmpfs", "source": "", "target": "/run", "file": "compose.yaml", "line": 15},
		],
	}]}
}

test_empty_input_quiet if {
	count(host_root_mounted.deny) == 0 with input as {}
}

# a user's runtime directory: the session bus starts host commands
test_user_runtime_dir_fires if {
	every src in ["/run/user/1000", "/run/user/1000/", "/var/run/user/501"] {
		fs := host_root_mounted.deny with input as _runtime_dir(src)
		count(fs) == 1
	}
}

_runtime_dir(src) := {"workloads": [{
	"source": "compose", "name": "agent", "file": "compose.yaml", "line": 2,
	"mounts": [{"source": src, "target": "/run/user/1000", "type": "bind", "file": "compose.yaml", "line": 5}],
}]}

test_user_runtime_subdir_quiet if {
	count(host_root_mounted.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent", "file": "compose.yaml", "line": 2,
		"mounts": [{"source": "/run/user/1000/agent-cache", "target": "/cache", "type": "bind", "file": "compose.yaml", "line": 5}],
	}]}
}
