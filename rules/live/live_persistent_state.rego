# METADATA
# title: Home, workspace or cache of the live sandbox is on persistent storage
# description: |
#   A disk-backed volume (not the container's overlay or a tmpfs) is mounted
#   over the home or workspace directory, or a package cache was filled
#   before the task. What the agent writes there survives the sandbox and
#   reaches the next task that mounts it: a poisoned cache or shell profile
#   outlives its author.
# related_resources:
#   - ref: https://containers.dev/implementors/json_reference/#general-properties
#     description: Dev Containers — mounts and named volumes survive rebuilds
#   - ref: https://kubernetes.io/docs/concepts/storage/persistent-volumes/
#     description: Kubernetes — persistent volumes
# custom:
#   id: live-persistent-state
#   property: disposable
#   severity: medium
#   remediation: Use an emptyDir, tmpfs or the container's own filesystem for home, workspace and caches; restore caches from a trusted, content-addressed store instead of a shared volume.
package rules.live_persistent_state

import data.lib.sa

deny contains f if {
	some m in input.live.reuse.persistent_mounts
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s is a persistent %s volume (%s) over the home or workspace", [m.target, m.fstype, m.source]),
	)
}

# Only against a task start the caller supplied: the process-tree guess is
# the session start, and a setup phase fills caches just before it.
deny contains f if {
	input.live.reuse.task_source == "option"
	some c in input.live.reuse.caches
	c.before_task
	f := sa.finding(rego.metadata.chain(), input.live.reuse, sprintf("cache %s was filled before this task started", [c.path]))
}
