package rules.dependency_registry_host_changed_test

import data.rules.dependency_registry_host_changed as r

debug := {
	"ecosystem": "npm", "name": "debug", "version": "4.3.4", "previous_version": "4.3.4",
	"change": "source-changed", "file": "package-lock.json", "line": 27,
	"resolved_host": "npm.evil.example", "previous_resolved_host": "registry.npmjs.org",
}

test_host_changed_fires if {
	fs := r.deny with input as {"deps": {"packages": [debug]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-registry-host-changed"
	f.severity == "high"
	f.category == "dependencies"
	f.message == "npm package debug@4.3.4 now resolves from npm.evil.example instead of registry.npmjs.org"
}

test_extra_index_fires if {
	p := {
		"ecosystem": "pypi", "name": "requests", "version": "2.31.0", "change": "source-changed",
		"file": "requirements.txt", "line": 3,
		"resolved_host": "pypi.evil.example,pypi.org", "previous_resolved_host": "pypi.org",
	}
	count(r.deny) == 1 with input as {"deps": {"packages": [p]}}
}

test_same_host_quiet if {
	p := object.union(debug, {"resolved_host": "registry.npmjs.org", "change": "upgraded"})
	count(r.deny) == 0 with input as {"deps": {"packages": [p]}}
}

test_new_package_quiet if {
	p := object.union(debug, {"change": "added", "previous_resolved_host": ""})
	count(r.deny) == 0 with input as {"deps": {"packages": [p]}}
}
