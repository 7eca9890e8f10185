package rules.vulnerable_dependency_added_test

import data.rules.vulnerable_dependency_added as r

pkg(change, vulns) := {
	"ecosystem": "npm", "name": "minimist", "version": "1.2.5", "previous_version": "1.2.6",
	"change": change, "file": "package-lock.json", "line": 69, "vulnerabilities": vulns,
}

crit := {"id": "CVE-2021-44906", "severity": "critical", "title": "minimist: prototype pollution", "fixed_version": "1.2.6, 0.2.4"}

test_downgrade_to_vulnerable_fires_with_advisory_severity if {
	fs := r.deny with input as {"deps": {"packages": [pkg("downgraded", [crit])]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "vulnerable-dependency-added"
	f.severity == "critical"
	f.category == "dependencies"
	f.property == "review"
	f.file == "package-lock.json"
	f.line == 69
	f.message == "npm package minimist downgraded from 1.2.6 to 1.2.5 is affected by CVE-2021-44906 (minimist: prototype pollution); fixed in 1.2.6, 0.2.4"
}

test_added_one_finding_per_advisory if {
	low := {"id": "GHSA-x", "severity": "low", "title": "", "fixed_version": ""}
	fs := r.deny with input as {"deps": {"packages": [pkg("added", [crit, low])]}}
	count(fs) == 2
	some f in fs
	f.severity == "low"
	f.message == "added npm package minimist@1.2.5 is affected by GHSA-x; no fixed version is known"
}

test_unknown_severity_is_medium if {
	fs := r.deny with input as {"deps": {"packages": [pkg("added", [{"id": "CVE-1", "severity": "unknown"}])]}}
	some f in fs
	f.severity == "medium"
}

test_removed_package_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": [pkg("removed", [crit])]}}
}

test_fixed_version_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": [pkg("upgraded", [])]}}
}

test_no_deps_quiet if {
	count(r.deny) == 0 with input as {}
}
