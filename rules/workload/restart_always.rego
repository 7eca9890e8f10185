# METADATA
# title: Sandbox restarts automatically
# description: |
#   A restart policy of always or unless-stopped brings the container back after
#   it exits and after the host or the Docker daemon restarts, with the same
#   writable layer. A sandbox meant for one task keeps running, and keeps its
#   state, after the task is over. Kubernetes is left out: a Deployment's pods
#   must use restartPolicy Always, and whether they are disposable depends on
#   the controller, not on this field.
# related_resources:
#   - ref: https://docs.docker.com/engine/containers/start-containers-automatically/
#     description: Docker — restart policies
#   - ref: https://docs.docker.com/reference/compose-file/services/#restart
#     description: Compose services — restart
#   - ref: https://docs.docker.com/engine/containers/run/
#     description: Docker run reference — --rm removes the container on exit
# custom:
#   id: restart-always
#   property: disposable
#   severity: low
#   remediation: Use restart no (the default) or on-failure with a retry limit, run one-shot sandboxes with --rm / docker compose run --rm, and remove the container and its volumes when the task ends.
package rules.restart_always

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	object.get(w, "source", "") != "kubernetes"
	not w.vm_host # a runner of microVMs outlives each task by design; each task gets its VM
	policy := wl.str(w, "restart")
	policy in {"always", "unless-stopped"}
	f := sa.finding(
		rego.metadata.chain(), w.restart,
		sprintf("%s has restart policy %s: it comes back with its state after the task ends", [wl.label(w), policy]),
	)
}
