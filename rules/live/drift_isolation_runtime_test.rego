package rules.drift_isolation_runtime_test

import data.rules.drift_isolation_runtime as r

w(rt) := {"source": "kubernetes", "id": "k8s:Pod/agents/coder/main", "runtime": {"value": rt, "file": "k8s/pod.yaml", "line": 9}}

live(kind, conf) := {"isolation": {"kind": kind, "runtime": "", "confidence": conf}}

test_gvisor_asked_runc_found if {
	some f in r.deny with input as {"workloads": [w("gvisor")], "live": live("container", "high")}
	f.file == "k8s/pod.yaml"
	f.message == "Kubernetes container Pod/agents/coder/main asks for gvisor, but the live sandbox runs in container (high confidence)"
}

test_gvisor_found_quiet if count(r.deny) == 0 with input as {"workloads": [w("gvisor")], "live": live("gvisor", "high")}

test_low_confidence_quiet if count(r.deny) == 0 with input as {"workloads": [w("gvisor")], "live": live("container", "low")}

test_runc_asked_quiet if count(r.deny) == 0 with input as {"workloads": [w("runc")], "live": live("container", "high")}

test_other_workload_matches_quiet if {
	count(r.deny) == 0 with input as {"workloads": [w("gvisor"), w("kata")], "live": live("kata", "medium")}
}
