package rules.policy_waiver_expired_test

import data.rules.policy_waiver_expired

test_expired_waiver_reported if {
	fs := policy_waiver_expired.deny with input as {"policy": {"file": ".sandbox-audit.yaml", "expired_waivers": [{
		"rule": "host-network", "path": "", "fingerprint": "", "reason": "legacy CI",
		"expires": "2026-01-31", "file": ".sandbox-audit.yaml", "line": 9,
	}]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "policy-waiver-expired"
	f.file == ".sandbox-audit.yaml"
	f.line == 9
	f.message == "waiver for rule host-network expired on 2026-01-31 (reason was: legacy CI)"
}

test_no_policy_quiet if {
	count(policy_waiver_expired.deny) == 0 with input as {}
}
