package rules.drift_egress_reached_test

import data.rules.drift_egress_reached as r

reached := {"live": {"network": {"probes": [{"target": "https://example.com/", "expect": "blocked", "reachable": true, "file": "live/network", "line": 1}]}}}

closed := {"live": {"network": {"probes": [{"target": "https://example.com/", "expect": "blocked", "reachable": false, "file": "live/network", "line": 1}]}}}

policy_workload := {"source": "kubernetes", "id": "k8s:Deployment/agents/coder/main", "name": "main", "egress": {"restricted": true, "allow": [], "by": "NetworkPolicy agents/deny-egress", "file": "k8s/netpol.yaml", "line": 4}}

test_networkpolicy_drift_fires if {
	some f in r.deny with input as object.union(reached, {"workloads": [policy_workload], "agents": []})
	f.file == "k8s/netpol.yaml"
	f.line == 4
	f.message == "Kubernetes container Deployment/agents/coder/main declares restricted egress (NetworkPolicy agents/deny-egress), but the live sandbox reached https://example.com/"
}

test_agent_network_off_fires if {
	a := {"tool": "codex", "network_access": {"value": false, "file": ".codex/config.toml", "line": 7}}
	some f in r.deny with input as object.union(reached, {"workloads": [], "agents": [a]})
	f.file == ".codex/config.toml"
}

test_enforced_quiet if count(r.deny) == 0 with input as object.union(closed, {"workloads": [policy_workload], "agents": []})

test_nothing_declared_quiet if count(r.deny) == 0 with input as object.union(reached, {"workloads": [{"source": "compose", "name": "app"}], "agents": []})
