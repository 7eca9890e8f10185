package policies.unread_test

import data.policies.score
import data.policies.unread

# A tree that speaks to every property and passes them all.
evidence := {"files": 3, "workloads": 1, "agents": 1, "workflows": 1}

result(u) := r if {
	r := score.result with input as {"findings": [], "counts": evidence, "unread": u, "settings": {}}
}

test_all_read_is_boundary if {
	r := result([])
	r.verdict == "boundary"
	every p in score.properties {
		r.properties[p].unread == []
	}
}

test_unparseable_manifest_leaves_its_properties_unknown if {
	r := result([{"source": "k8s/pod.yaml", "kind": "kubernetes", "partial": false, "error": true}])
	r.properties.disposable.status == "unknown"
	r.properties.network.status == "unknown"
	r.properties.credentials.status == "unknown"
	r.properties.credentials.unread == ["k8s/pod.yaml"]
	# a Kubernetes manifest says nothing about review
	r.properties.review.status == "pass"
	r.properties.review.unread == []
	r.verdict == "unknown"
	# the gate passes without require or strict: the verdict says it
	r.gate.passed
	not r.gate.incomplete
}

test_each_format_speaks_to_its_properties if {
	want := {
		"gitconfig": {"credentials"},
		"firewall": {"network"},
		"script": {"disposable", "network", "credentials", "review"},
		"dockerfile": {"disposable", "credentials", "review"},
		"mcp": {"network", "credentials", "review"},
		"compose": {"disposable", "network", "credentials"},
		"devcontainer": {"disposable", "network", "credentials"},
		"claude": {"disposable", "network", "credentials", "review"},
		"workflows": {"disposable", "network", "credentials", "review"},
	}
	every kind, props in want {
		r := result([{"source": "f", "kind": kind, "error": true}])
		{p | some p in score.properties; r.properties[p].status == "unknown"} == props
	}
}

test_unknown_and_future_kinds_speak_to_everything if {
	every kind in ["unknown", "a-collector-added-later"] {
		r := result([{"source": "dir", "kind": kind, "error": true}])
		every p in score.properties {
			r.properties[p].status == "unknown"
		}
	}
}

test_errors_that_are_no_configuration_speak_to_nothing if {
	r := result([{"source": "package-lock.json", "kind": "", "error": true}])
	r.verdict == "boundary"
}

test_partial_file_still_fails_on_what_was_read if {
	r := score.result with input as {
		"findings": [{"rule_id": "privileged-container", "property": "disposable", "severity": "critical", "category": "posture"}],
		"counts": evidence, "settings": {},
		"unread": [{"source": "k8s/pods.yaml", "kind": "kubernetes", "partial": true, "error": true}],
	}
	r.properties.disposable.status == "fail"
	r.properties.disposable.unread == ["k8s/pods.yaml"]
	r.properties.network.status == "unknown"
	r.verdict == "convenience"
}

test_partial_file_alone_does_not_pass if {
	r := score.result with input as {"findings": [], "counts": {"files": 1, "workloads": 1}, "settings": {}, "unread": [{"source": "k8s/pods.yaml", "kind": "kubernetes", "partial": true, "error": true}]}
	r.properties.network.status == "unknown"
	r.properties.network.score == 100
}

test_only_unparseable_files_are_not_credentials_pass if {
	# nothing was read: no file counts, and every one is unread
	r := score.result with input as {"findings": [], "counts": {"files": 0}, "settings": {"require": ["credentials"]}, "unread": [
		{"source": "a.yaml", "kind": "kubernetes", "error": true},
		{"source": "b/.mcp.json", "kind": "mcp", "error": true},
	]}
	r.properties.credentials.status == "unknown"
	r.properties.credentials.score == 0
	r.properties.credentials.unread == ["a.yaml", "b/.mcp.json"]
	not r.gate.passed
	r.gate.reasons == ["required property credentials is unknown (not read: a.yaml, b/.mcp.json)"]
}

test_require_names_at_most_three_sources if {
	r := score.result with input as {"findings": [], "counts": evidence, "settings": {"require": ["network"]}, "unread": [
		{"source": "a.yaml", "kind": "kubernetes", "error": true},
		{"source": "b.yaml", "kind": "kubernetes", "error": true},
		{"source": "c.yaml", "kind": "kubernetes", "error": true},
		{"source": "d.yaml", "kind": "kubernetes", "error": true},
		{"source": "d.yaml", "kind": "kubernetes", "error": true},
	]}
	r.properties.network.unread == ["a.yaml", "b.yaml", "c.yaml", "d.yaml"]
	r.gate.reasons == ["required property network is unknown (not read: a.yaml, b.yaml, c.yaml and 1 more)"]
}

test_strict_fails_on_any_error if {
	r := score.result with input as {"findings": [], "counts": evidence, "settings": {"strict": true}, "unread": [{"source": "package-lock.json", "kind": "", "error": true}]}
	r.verdict == "boundary"
	not r.gate.passed
	r.gate.incomplete
	r.gate.reasons == ["strict: 1 input(s) could not be audited (see errors)"]
}

test_strict_ignores_live_checks_that_could_not_run if {
	r := score.result with input as {"findings": [], "counts": evidence, "settings": {"strict": true}, "unread": [{"source": "live/reuse", "kind": "live:reuse", "error": false}]}
	r.gate.passed
	not r.gate.incomplete
}

test_live_checks_that_could_not_run if {
	r := result([
		{"source": "live/network", "kind": "live:network", "error": false},
		{"source": "live/reuse", "kind": "live:reuse", "error": false},
	])
	r.properties.network.status == "unknown"
	r.properties.network.unread == ["live/network"]
	r.properties.disposable.status == "pass"
}

test_live_without_root_leaves_live_properties_unknown if {
	r := score.result with input as {"findings": [], "counts": {}, "settings": {}, "live": {"network": true, "credentials": true}, "unread": [{"source": "live/root", "kind": "live:root", "error": false}]}
	r.properties.network.status == "unknown"
	r.properties.credentials.status == "unknown"
}

test_min_score_fails_on_evidence_even_when_incomplete if {
	r := score.result with input as {
		"findings": [{"rule_id": "x", "property": "network", "severity": "low", "category": "posture"}],
		"counts": evidence, "settings": {"min_score": {"network": 99}},
		"unread": [{"source": "a.yaml", "kind": "kubernetes", "error": true}],
	}
	r.properties.network.status == "fail"
}

test_by_property_is_defined_for_every_property if {
	b := unread.by_property with input as {}
	b == {"disposable": [], "network": [], "credentials": [], "review": []}
}

# A rule that failed to evaluate leaves its property unknown, the others as
# they are, and makes the audit incomplete without strict (exit 2).
test_rule_failure_is_incomplete_without_strict if {
	r := result([{"source": "rule/agent-push-allowed", "kind": "rule:review", "error": true}])
	r.properties.review.status == "unknown"
	r.properties.review.unread == ["rule/agent-push-allowed"]
	every p in ["disposable", "network", "credentials"] {
		r.properties[p].status == "pass"
	}
	not r.gate.passed
	r.gate.incomplete
	r.gate.reasons == ["1 rule(s) failed to evaluate (see errors)"]
}

test_file_errors_are_not_rule_failures if {
	r := result([{"source": "k8s/pod.yaml", "kind": "kubernetes", "error": true}])
	not r.gate.incomplete
}
