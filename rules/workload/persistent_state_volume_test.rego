package rules.persistent_state_volume_test

import data.rules.persistent_state_volume

test_named_volume_and_pvc_fire if {
	fs := persistent_state_volume.deny with input as {"workloads": [
		{
			"source": "devcontainer", "name": "dev",
			"mounts": [{"type": "volume", "source": "dind-var-lib-docker", "target": "/var/lib/docker", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 14}],
		},
		{
			"source": "kubernetes", "name": "main",
			"mounts": [{"type": "pvc", "source": "agent-home", "target": "/home/agent", "persistent": true, "file": "pod.yaml", "line": 40}],
		},
	]}
	count(fs) == 2
	some f in fs
	f.rule_id == "persistent-state-volume"
	f.severity == "medium"
	f.file == ".devcontainer/devcontainer.json"
	f.line == 14
	contains(f.message, "named volume dind-var-lib-docker at /var/lib/docker: its contents outlive the task")
	some g in fs
	g.line == 40
	contains(g.message, "PersistentVolumeClaim agent-home")
}

# a devcontainer with several caches: one finding, at the first, naming all
test_volumes_of_one_workload_fold if {
	fs := persistent_state_volume.deny with input as {"workloads": [{
		"source": "devcontainer", "name": "dev",
		"mounts": [
			{"type": "volume", "source": "gradle", "target": "/home/u/.gradle", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 12},
			{"type": "bind", "source": "/src", "target": "/src", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 10},
			{"type": "volume", "source": "npm", "target": "/home/u/.npm", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 11},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.line == 11
	contains(f.message, "named volume gradle at /home/u/.gradle, named volume npm at /home/u/.npm: their contents outlive the task")
}

test_hardened_quiet if {
	count(persistent_state_volume.deny) == 0 with input as {"workloads": [{
		"source": "compose", "name": "agent",
		"mounts": [
			{"type": "tmpfs", "source": "", "target": "/tmp", "persistent": false, "file": "compose.yaml", "line": 9},
			{"type": "volume", "source": "", "target": "/cache", "persistent": false, "file": "compose.yaml", "line": 10},
			{"type": "emptyDir", "source": "scratch", "target": "/scratch", "persistent": false, "file": "compose.yaml", "line": 11},
			{"type": "bind", "source": "./src", "target": "/src", "persistent": true, "file": "compose.yaml", "line": 12},
		],
	}]}
}

test_empty_input_quiet if {
	count(persistent_state_volume.deny) == 0 with input as {}
}

# a devcontainer and the compose service it runs in are one container: a
# volume both declare is reported once, at the service; one only the
# devcontainer adds is reported there
test_devcontainer_and_its_service_once if {
	dc := {
		"source": "devcontainer", "name": "x", "judged": true, "file": ".devcontainer/devcontainer.json", "line": 1,
		"compose": {"resolved": true, "service": "app"},
		"mounts": [
			{"type": "volume", "source": "claude-config", "target": "/home/node/.claude", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 6},
			{"type": "volume", "source": "npm", "target": "/home/node/.npm", "persistent": true, "file": ".devcontainer/devcontainer.json", "line": 7},
		],
	}
	svc := {
		"source": "compose", "name": "app", "judged": true, "devcontainer": ".devcontainer/devcontainer.json", "file": ".devcontainer/compose.yml", "line": 2,
		"mounts": [{"type": "volume", "source": "claude-config", "target": "/home/node/.claude", "persistent": true, "file": ".devcontainer/compose.yml", "line": 7}],
	}
	fs := persistent_state_volume.deny with input as {"workloads": [dc, svc]}
	count(fs) == 2
	some f in fs
	f.file == ".devcontainer/compose.yml"
	contains(f.message, "claude-config")
	some g in fs
	g.file == ".devcontainer/devcontainer.json"
	g.line == 7
	not contains(g.message, "claude-config")

	# the service not read: the devcontainer's mounts are its own
	gs := persistent_state_volume.deny with input as {"workloads": [object.union(dc, {"compose": {"resolved": false}})]}
	some h in gs
	contains(h.message, "claude-config")
}

# A writable hostPath of a node directory persists for the next pod on that
# node; a read-only one, a device, a socket, a system or home directory is
# another rule's (or nothing to keep).
hp(src, ro) := {"type": "hostPath", "source": src, "target": "/data", "read_only": ro, "persistent": true, "file": "k8s/agent.yaml", "line": 30}

test_writable_node_host_path_fires if {
	fs := persistent_state_volume.deny with input as {"workloads": [{"source": "kubernetes", "name": "agent/agent", "mounts": [hp("/var/lib/skills/draft", false)]}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "host path /var/lib/skills/draft at /data")
	every src in ["/dev/fuse", "/var/run/docker.sock", "/run/containerd/containerd.sock", "/etc/ssl", "/home/agent/.claude", "/", "/var/lib/kubelet/pods", "/proc"] {
		count(persistent_state_volume.deny) == 0 with input as {"workloads": [{"source": "kubernetes", "name": "agent/agent", "mounts": [hp(src, false)]}]}
	}
	count(persistent_state_volume.deny) == 0 with input as {"workloads": [{"source": "kubernetes", "name": "agent/agent", "mounts": [hp("/var/lib/skills/draft", true)]}]}
}

# A volume for the shell's history only is quiet; one beside it still fires.
test_shell_history_quiet if {
	hist := {"type": "volume", "source": "claude-bashhistory", "target": "/commandhistory", "persistent": true, "file": "c.yml", "line": 9}
	count(persistent_state_volume.deny) == 0 with input as {"workloads": [{"source": "compose", "name": "dev", "mounts": [hist]}]}
	fs := persistent_state_volume.deny with input as {"workloads": [{"source": "compose", "name": "dev", "mounts": [
		hist,
		{"type": "volume", "source": "npm-cache", "target": "/home/node/.npm", "persistent": true, "file": "c.yml", "line": 10},
	]}]}
	count(fs) == 1
	some f in fs
	f.line == 10
	not contains(f.message, "commandhistory")
}
