# METADATA
# title: Persistent volume carries state between tasks
# description: |
#   A named volume or a PersistentVolumeClaim outlives the container: whatever
#   one task leaves there (a poisoned dependency cache, a modified git hook, a
#   shell history with a token, a planted binary on a PATH directory) is there
#   when the next task, possibly for another repository or user, starts. The
#   sandbox is then not disposable. Anonymous volumes, tmpfs and emptyDir are
#   not reported.
# related_resources:
#   - ref: https://docs.docker.com/engine/storage/volumes/
#     description: Docker — volumes persist beyond the container's lifecycle
#   - ref: https://kubernetes.io/docs/concepts/storage/persistent-volumes/
#     description: Kubernetes — persistent volumes and claims
#   - ref: https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/
#     description: Kubernetes — ephemeral volumes live and die with the pod
#   - ref: https://containers.dev/implementors/json_reference/
#     description: Dev Container metadata reference — named volumes survive rebuilds
# custom:
#   id: persistent-state-volume
#   property: disposable
#   severity: medium
#   remediation: Use tmpfs, an anonymous volume removed with the container (docker compose down -v), emptyDir or a generic ephemeral volume. If a cache must persist, make it read-only in the sandbox and fill it from a trusted job, or key it to one repository and discard it on any doubt.
package rules.persistent_state_volume

import data.lib.sa
import data.lib.workload as wl

kinds := {"volume": "named volume", "pvc": "PersistentVolumeClaim"}

deny contains f if {
	some w in wl.judged_workloads
	some m in w.mounts
	object.get(m, "persistent", false) == true
	kind := kinds[object.get(m, "type", "")]
	f := sa.finding(
		rego.metadata.chain(), m,
		sprintf("%s keeps %s %s at %s: its contents outlive the task", [wl.label(w), kind, object.get(m, "source", ""), object.get(m, "target", "?")]),
	)
}
