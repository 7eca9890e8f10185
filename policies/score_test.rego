package policies.score_test

import data.policies.score

base := {"counts": {"files": 3, "workloads": 1, "agents": 1, "workflows": 0, "git_configs": 0}, "settings": {}}

test_nothing_checked_is_unknown if {
	r := score.result with input as {"findings": [], "counts": {}, "settings": {}}
	r.verdict == "unknown"
	every p in score.properties {
		r.properties[p].status == "unknown"
		r.properties[p].score == 0
	}
	r.gate.passed
}

test_all_pass_is_boundary if {
	r := score.result with input as {"findings": [], "counts": {"files": 1, "workloads": 1, "agents": 1}, "settings": {}}
	r.verdict == "boundary"
	r.properties.network.score == 100
}

# An agent's permission rules alone (Cursor's cli.json) speak to review,
# not to its sandbox's network; its sandbox settings do.
test_agent_evidence_by_property if {
	r := score.result with input as {"findings": [], "counts": {"files": 1, "agents": 1, "network_agents": 0}, "settings": {}}
	r.properties.review.status == "pass"
	r.properties.network.status == "unknown"
	n := score.result with input as {"findings": [], "counts": {"files": 1, "agents": 0, "network_agents": 1}, "settings": {}}
	n.properties.network.status == "pass"
	n.properties.review.status == "unknown"
}

test_review_unknown_keeps_verdict_unknown if {
	r := score.result with input as {"findings": [], "counts": {"files": 1, "workloads": 1}, "settings": {}}
	r.properties.review.status == "unknown"
	r.properties.network.status == "pass"
	r.verdict == "unknown"
}

test_high_finding_fails_property_and_gate if {
	r := score.result with input as object.union(base, {"findings": [{"rule_id": "x", "property": "network", "severity": "high", "category": "posture"}]})
	r.properties.network.status == "fail"
	r.properties.network.score == 70
	r.properties.network.findings == 1
	r.verdict == "convenience"
	not r.gate.passed
	r.gate.reasons == ["1 finding(s) at or above high"]
}

test_low_finding_lowers_score_only if {
	r := score.result with input as object.union(base, {"findings": [{"rule_id": "x", "property": "network", "severity": "low", "category": "posture"}]})
	r.properties.network.status == "pass"
	r.properties.network.score == 95
	r.gate.passed
}

test_suppressed_finding_does_not_count if {
	r := score.result with input as object.union(base, {"findings": [{"rule_id": "x", "property": "network", "severity": "critical", "category": "posture", "suppressed": true}]})
	r.properties.network.status == "pass"
	r.gate.passed
}

test_dependency_finding_gates_but_keeps_verdict if {
	r := score.result with input as object.union(base, {"findings": [{"rule_id": "d", "property": "review", "severity": "critical", "category": "dependencies"}]})
	r.properties.review.findings == 0
	not r.gate.passed
}

test_fail_on_medium if {
	r := score.result with input as object.union(base, {"settings": {"fail_on": "medium"}, "findings": [{"rule_id": "x", "property": "network", "severity": "medium", "category": "posture"}]})
	not r.gate.passed
}

test_fail_on_none_never_fails_on_findings if {
	r := score.result with input as object.union(base, {"settings": {"fail_on": "none"}, "findings": [{"rule_id": "x", "property": "network", "severity": "critical", "category": "posture"}]})
	r.gate.passed
}

test_require_unknown_property_fails_gate if {
	r := score.result with input as {"counts": {"files": 1, "workloads": 1}, "settings": {"require": ["review"]}, "findings": []}
	not r.gate.passed
	r.gate.reasons == ["required property review is unknown"]
}

test_min_score if {
	r := score.result with input as object.union(base, {"settings": {"min_score": {"network": 99}}, "findings": [{"rule_id": "x", "property": "network", "severity": "low", "category": "posture"}]})
	r.properties.network.status == "fail"
	not r.gate.passed
}

test_findings_of_one_rule_count_separately if {
	r := score.result with input as object.union(base, {"findings": [
		{"fingerprint": "a", "rule_id": "x", "property": "credentials", "severity": "high", "category": "posture"},
		{"fingerprint": "b", "rule_id": "x", "property": "credentials", "severity": "high", "category": "posture"},
	]})
	r.properties.credentials.findings == 2
	r.properties.credentials.score == 40
	r.gate.reasons == ["2 finding(s) at or above high"]
}

test_grouped_findings_count_each if {
	r := score.result with input as object.union(base, {"findings": [
		{"rule_id": "x", "property": "network", "severity": "low", "category": "posture", "count": 3},
		{"rule_id": "y", "property": "network", "severity": "high", "category": "posture", "suppressed": true, "count": 5},
		{"rule_id": "z", "property": "review", "severity": "critical", "category": "dependencies", "count": 2},
	]})
	r.properties.network.score == 85
	r.properties.network.findings == 3
	r.properties.network.status == "pass"
	r.gate.reasons == ["2 finding(s) at or above high"]
}

# Notes about workloads that are not the agent's sandbox change no property
# and never gate, whatever fail_on says.
test_platform_notes_change_nothing if {
	r := score.result with input as object.union(base, {"settings": {"fail_on": "info"}, "findings": [
		{"rule_id": "runtime-socket-mounted", "property": "disposable", "severity": "info", "category": "platform"},
	]})
	r.properties.disposable.status == "pass"
	r.properties.disposable.score == 100
	r.properties.disposable.findings == 0
	r.gate.passed
}
