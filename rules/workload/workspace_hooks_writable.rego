# METADATA
# title: The agent can write the repository's hooks and devcontainer from inside
# description: |
#   The repository is mounted read-write into a sandbox that is meant to contain
#   the agent — its egress is restricted, a firewall script is meant to restrict
#   it (read or not, holding or not), or a command runs the agent unattended
#   (--dangerously-skip-permissions, --yolo, --full-auto) — and nothing mounts
#   .git or .devcontainer read-only over it. The agent can then plant a git hook
#   (.git/hooks/pre-commit) that runs on the host the next time the developer
#   uses git there, or change .devcontainer/ (an initializeCommand, a privileged
#   flag, a firewall script that allows everything) so the next rebuild runs its
#   code on the host or drops the restrictions. The default devcontainer
#   workspace mount is read-write, so this is reported only where the
#   configuration tries to be a boundary; everywhere else a writable checkout is
#   the point of a devcontainer.
# related_resources:
#   - ref: https://git-scm.com/docs/githooks
#     description: githooks — hooks in .git/hooks run on git commands
#   - ref: https://containers.dev/implementors/json_reference/#lifecycle-scripts
#     description: Dev Container metadata reference — initializeCommand runs on the host
#   - ref: https://code.visualstudio.com/remote/advancedcontainers/improve-performance#_use-clone-repository-in-container-volume
#     description: VS Code — clone the repository into a container volume instead of binding the local folder
# custom:
#   id: workspace-hooks-writable
#   property: disposable
#   severity: medium
#   remediation: Mount .git/hooks (or .git) and .devcontainer read-only over the workspace (mounts - source=${localWorkspaceFolder}/.devcontainer,target=<workspace>/.devcontainer,type=bind,readonly), or give the agent a clone in a container volume and take its work back as a branch or pull request; review .git/hooks and .devcontainer before reopening the folder on the host.
package rules.workspace_hooks_writable

import data.lib.sa
import data.lib.workload as wl

unattended_flags := ["--dangerously-skip-permissions", "--dangerously-bypass-approvals-and-sandbox", "--yolo", "--full-auto", "bypassPermissions", "--approval-mode yolo", "--approval-mode=yolo"]

# writable_workspace(m): a read-write bind of the repository itself.
writable_workspace(m) if {
	object.get(m, "workspace_rel", "") == "."
	object.get(m, "type", "") == "bind"
	object.get(m, "read_only", false) != true
}

# contained(w) says why the workload is meant to contain the agent.
contained(w) := "its egress is restricted" if object.get(w, ["egress", "restricted"], false) == true

else := "a firewall script is meant to restrict its egress" if object.get(w, ["egress", "script_unverified"], false) == true

else := sprintf("a command runs the agent with %s", [flags[0]]) if {
	flags := [flag |
		some c in object.get(w, "commands", [])
		regex.match(unattended_re, object.get(c, "text", ""))
		some flag in unattended_flags
		contains(c.text, flag)
	]
	count(flags) > 0
}

unattended_re := concat("|", [regex.replace(f, `[.*+?()|\[\]{}^$\\]`, `\$0`) | some f in unattended_flags])

covered(w, ws, sub) if {
	some m in object.get(w, "mounts", [])
	object.get(m, "read_only", false) == true
	t := trim_suffix(object.get(m, "target", ""), "/")
	some p in sub
	t == concat("/", [trim_suffix(ws.target, "/"), p])
}

exposed(w, ws) := [name |
	some name, sub in {".git/hooks": [".git", ".git/hooks"], ".devcontainer": [".devcontainer"]}
	not covered(w, ws, sub)
]

host_hook(w) := ", and its initializeCommand runs on the host at every open" if {
	some c in object.get(w, "commands", [])
	object.get(c, "on_host", false) == true
} else := ""

deny contains f if {
	some [i, ws] in wl.rel_mounts
	ws.workspace_rel == "."
	w := input.workloads[i]
	# A devcontainer that runs in a compose service read in the scan: the
	# service's volumes are the mounts (workspaceMount is ignored there).
	not wl.network_in_service(w)
	f := _finding(w, ws)
}

_finding(w, ws) := f if {
	writable_workspace(ws)
	why := contained(w)
	open := exposed(w, ws)
	count(open) > 0
	f := sa.finding(
		rego.metadata.chain(), ws,
		sprintf("%s mounts the repository read-write at %s though %s: the agent can change %s, which run on the host at the next git command or rebuild%s", [wl.label(w), object.get(ws, "target", "?"), why, concat(" and ", sort(open)), host_hook(w)]),
	)
}
