package rules.workspace_parent_mounted_test

import data.rules.workspace_parent_mounted

m(src, rel, ro) := {"type": "bind", "source": src, "target": "/workspaces", "read_only": ro, "workspace_rel": rel, "file": ".devcontainer/docker-compose.yml", "line": 9}

test_compose_template_parent_fires if {
	fs := workspace_parent_mounted.deny with input as {"workloads": [{"source": "compose", "name": "app", "mounts": [m("../..", "..", false)]}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workspace-parent-mounted"
	f.severity == "medium"
	f.line == 9
	contains(f.message, "compose service app mounts ../.., the folder above its repository, at /workspaces read-write, so it can plant hooks in them")
}

test_devcontainer_workspace_mount_parent_fires if {
	ws := object.union(m("${localWorkspaceFolder}/..", "..", true), {"file": ".devcontainer/devcontainer.json", "line": 3})
	fs := workspace_parent_mounted.deny with input as {"workloads": [{"source": "devcontainer", "name": "dev", "mounts": [ws], "workspace": ws}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "read-only")
}

test_repo_and_sibling_quiet if {
	fs := workspace_parent_mounted.deny with input as {"workloads": [{"source": "compose", "name": "app", "mounts": [
		m("..", ".", false),
		m("${localWorkspaceFolder}/../shared", "../shared", false),
		m("./src", "src", false),
	]}]}
	count(fs) == 0
}
