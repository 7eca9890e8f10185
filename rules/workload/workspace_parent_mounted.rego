# METADATA
# title: The repository's parent directory is mounted
# description: |
#   A mount's host source is the folder above the repository
#   (${localWorkspaceFolder}/.. in a devcontainer, ../.. in the compose file of
#   .devcontainer/, the pattern of the compose devcontainer templates): the agent
#   sees every sibling repository and whatever else the developer keeps there —
#   their .env files, git remotes with tokens, build outputs — and, read-write,
#   can plant git hooks or devcontainer changes in them that run on the host
#   when the developer next works there. A mount of one named sibling
#   (${localWorkspaceFolder}/../shared) is not reported.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/
#     description: Dev Container metadata reference — workspaceMount and ${localWorkspaceFolder}
#   - ref: https://github.com/devcontainers/templates/blob/main/src/docker-existing-docker-compose/.devcontainer/docker-compose.yml
#     description: Dev Containers compose template — the ../.. workspace mount
#   - ref: https://git-scm.com/docs/githooks
#     description: githooks — hooks run whatever the hooks directory holds
# custom:
#   id: workspace-parent-mounted
#   property: credentials
#   severity: medium
#   remediation: Mount only the repository (${localWorkspaceFolder}, or .. from .devcontainer/ in compose) and add the sibling folders the task needs one by one, read-only where they are only read.
package rules.workspace_parent_mounted

import data.lib.sa
import data.lib.workload as wl

parent(rel) if regex.match(`^\.\.(/\.\.)*$`, rel)

mode(m) := "read-only" if object.get(m, "read_only", false) == true

else := "read-write, so it can plant hooks in them"

deny contains f if {
	some [i, m] in wl.rel_mounts
	startswith(m.workspace_rel, "..")
	w := input.workloads[i]
	f := _finding(w, m)
}

_finding(w, m) := f if {
	parent(m.workspace_rel)
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s mounts %s, the folder above its repository, at %s %s: the agent sees every sibling repository and its secrets", [wl.label(w), m.source, object.get(m, "target", "?"), mode(m)]),
	)
}
