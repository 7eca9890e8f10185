package rules.dependency_vuln_matching_not_done_test

import data.rules.dependency_vuln_matching_not_done as r

pkgs := [
	{"ecosystem": "npm", "name": "a", "version": "1.0.0", "change": "added", "file": "package-lock.json", "line": 8},
	{"ecosystem": "npm", "name": "b", "version": "1.0.0", "change": "removed", "file": "package-lock.json", "line": 12},
]

test_missing_db_fires if {
	fs := r.deny with input as {"deps": {"vuln_matched": false, "db_status": "missing: no trivy database at /x/db/trivy.db", "packages": pkgs}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-vuln-matching-not-done"
	f.severity == "info"
	f.file == "package-lock.json"
	f.message == "package versions the change brings in: 1, none checked for vulnerabilities (database missing)"
}

test_error_db_fires if {
	some f in r.deny with input as {"deps": {"vuln_matched": false, "db_status": "error: invalid database", "packages": pkgs}}
	endswith(f.message, "(database unreadable)")
}

test_matched_quiet if {
	count(r.deny) == 0 with input as {"deps": {"vuln_matched": true, "db_status": "ok", "packages": pkgs}}
}

test_nothing_incoming_quiet if {
	count(r.deny) == 0 with input as {"deps": {"vuln_matched": false, "db_status": "missing: x", "packages": [pkgs[1]]}}
}
