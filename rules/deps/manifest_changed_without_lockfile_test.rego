package rules.manifest_changed_without_lockfile_test

import data.rules.manifest_changed_without_lockfile as r

test_stale_lockfile_fires if {
	fs := r.deny with input as {"deps": {"manifests_without_lockfile": [{
		"ecosystem": "golang", "manifest": "go.mod", "lockfile": "go.sum", "file": "go.mod", "line": 6,
	}]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "manifest-changed-without-lockfile"
	f.category == "dependencies"
	f.file == "go.mod"
	f.line == 6
	f.message == "go.mod changes its dependencies but go.sum was not updated"
}

test_none_quiet if {
	count(r.deny) == 0 with input as {"deps": {"manifests_without_lockfile": []}}
}
