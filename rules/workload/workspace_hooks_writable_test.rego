package rules.workspace_hooks_writable_test

import data.rules.workspace_hooks_writable

ws := {"type": "bind", "source": "${localWorkspaceFolder}", "target": "/workspace", "workspace_rel": ".", "file": ".devcontainer/devcontainer.json", "line": 14}

fw := {"restricted": true, "script_unverified": true, "by": "firewall script .devcontainer/init-firewall.sh (postStartCommand)"}

dev(extra) := object.union({"source": "devcontainer", "name": "dev", "mounts": [ws], "workspace": ws}, extra)

test_restricted_sandbox_with_writable_checkout_fires if {
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({"egress": fw})]}
	count(fs) == 1
	some f in fs
	f.rule_id == "workspace-hooks-writable"
	f.severity == "medium"
	f.line == 14
	f.message == "devcontainer dev mounts the repository read-write at /workspace though its egress is restricted: the agent can change .devcontainer and .git/hooks, which run on the host at the next git command or rebuild"
}

test_unattended_agent_and_host_hook if {
	w := dev({"commands": [
		{"phase": "initialize", "on_host": true, "text": "./.devcontainer/init.sh"},
		{"phase": "postStart", "text": "claude --dangerously-skip-permissions -p 'fix the tests'"},
	]})
	fs := workspace_hooks_writable.deny with input as {"workloads": [w]}
	some f in fs
	contains(f.message, "though a command runs the agent with --dangerously-skip-permissions")
	contains(f.message, "and its initializeCommand runs on the host at every open")
}

test_read_only_overlays_quiet if {
	overlays := [
		ws,
		{"type": "bind", "source": "${localWorkspaceFolder}/.git", "target": "/workspace/.git", "read_only": true},
		{"type": "bind", "source": "${localWorkspaceFolder}/.devcontainer", "target": "/workspace/.devcontainer/", "read_only": true},
	]
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({"egress": fw, "mounts": overlays})]}
	count(fs) == 0
}

test_one_overlay_names_the_other if {
	overlays := [ws, {"type": "bind", "source": "x", "target": "/workspace/.devcontainer", "read_only": true}]
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({"egress": fw, "mounts": overlays})]}
	some f in fs
	contains(f.message, "can change .git/hooks, which")
}

# An ordinary devcontainer: writable checkout, no boundary to undermine.
test_ordinary_devcontainer_quiet if {
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({})]}
	count(fs) == 0
}

test_read_only_workspace_quiet if {
	ro := object.union(ws, {"read_only": true})
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({"egress": fw, "mounts": [ro], "workspace": ro})]}
	count(fs) == 0
}

test_compose_service_workspace_bind if {
	m := {"type": "bind", "source": "..", "target": "/app", "workspace_rel": ".", "file": ".devcontainer/compose.yml", "line": 8}
	fs := workspace_hooks_writable.deny with input as {"workloads": [{"source": "compose", "name": "agent", "mounts": [m], "egress": {"restricted": true, "by": "internal network: sandbox"}}]}
	count(fs) == 1
}

# A firewall script that is meant to restrict egress, even one not read or
# not denying by default, is the configuration trying to be a boundary.
test_firewall_attempt_fires if {
	unread := {"restricted": false, "script_unverified": true, "script": {"runs": "/usr/local/bin/init-firewall.sh", "not_read": "not among the files read"}}
	fs := workspace_hooks_writable.deny with input as {"workloads": [dev({"egress": unread})]}
	count(fs) == 1
	some f in fs
	contains(f.message, "though a firewall script is meant to restrict its egress")
}

# A devcontainer that runs in a compose service of the scan: its own
# workspaceMount is ignored, the service's bind is judged.
test_compose_devcontainer_left_to_its_service if {
	d := dev({"egress": fw, "compose": {"files": ["compose.yml"], "service": "app", "resolved": true}})
	count(workspace_hooks_writable.deny) == 0 with input as {"workloads": [d]}
}

# Two unattended flags in the commands name the first; no conflicting values.
test_two_unattended_flags if {
	w := dev({"commands": [
		{"phase": "postStart", "text": "codex --dangerously-bypass-approvals-and-sandbox exec x"},
		{"phase": "postAttach", "text": "claude --dangerously-skip-permissions -p 'x'"},
	]})
	fs := workspace_hooks_writable.deny with input as {"workloads": [w]}
	count(fs) == 1
	some f in fs
	contains(f.message, "a command runs the agent with --dangerously-bypass-approvals-and-sandbox")
}
