package rules.lockfile_removed_test

import data.rules.lockfile_removed as r

test_removed_fires if {
	fs := r.deny with input as {"deps": {"removed_lockfiles": [{
		"ecosystem": "npm", "lockfile": "web/yarn.lock", "manifest": "web/package.json",
		"file": "web/yarn.lock", "line": 1,
	}]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "lockfile-removed"
	f.severity == "medium"
	f.message == "web/yarn.lock was removed"
}

test_none_quiet if {
	count(r.deny) == 0 with input as {"deps": {"removed_lockfiles": []}}
}
