# METADATA
# title: Configuration asks for a sandboxed runtime, but the live sandbox runs on another
# description: |
#   A scanned workload asks for gVisor, Kata Containers or Firecracker, yet
#   the live audit, with medium or high confidence, finds the sandbox in a
#   different kind of isolation (most often a plain runc container): the
#   runtime class is missing on the node, ignored, or the agent runs
#   somewhere else than the configuration says.
# related_resources:
#   - ref: https://kubernetes.io/docs/concepts/containers/runtime-class/
#     description: Kubernetes — RuntimeClass
#   - ref: https://gvisor.dev/docs/user_guide/install/
#     description: gVisor — install and verify runsc
# custom:
#   id: drift-isolation-runtime
#   property: disposable
#   severity: high
#   remediation: Make sure the node pool has the runtime installed and the RuntimeClass handler maps to it; check from inside the sandbox (dmesg, /proc/version) that it is in force.
package rules.drift_isolation_runtime

import data.lib.live
import data.lib.sa

sandboxed := {"gvisor", "kata", "firecracker"}

declares(k) if {
	some w in input.workloads
	live.judged(w)
	live.str(w, "runtime") == k
}

deny contains f if {
	iso := input.live.isolation
	iso.kind != "unknown"
	iso.confidence != "low"
	not declares(iso.kind)
	some w in input.workloads
	live.judged(w)
	rt := live.str(w, "runtime")
	rt in sandboxed
	f := sa.finding(
		rego.metadata.chain(), w.runtime,
		sprintf("%s asks for %s, but the live sandbox runs in %s (%s confidence)", [live.label(w), rt, iso.kind, iso.confidence]),
	)
}
