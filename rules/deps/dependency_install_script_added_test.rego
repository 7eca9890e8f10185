package rules.dependency_install_script_added_test

import data.rules.dependency_install_script_added as r

esbuild := {
	"ecosystem": "npm", "name": "esbuild", "version": "0.19.0", "previous_version": "",
	"change": "added", "file": "package-lock.json", "line": 40,
	"install_script": true, "previous_install_script": false,
}

test_new_npm_install_script_fires if {
	fs := r.deny with input as {"deps": {"packages": [esbuild]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-install-script-added"
	f.severity == "medium"
	f.category == "dependencies"
	f.line == 40
	f.message == "added npm package esbuild@0.19.0 runs an install script when installed"
}

test_python_sdist_fires if {
	p := {
		"ecosystem": "pypi", "name": "pycrypto", "version": "2.6.1", "change": "added",
		"file": "poetry.lock", "line": 15, "install_script": true,
	}
	some f in r.deny with input as {"deps": {"packages": [p]}}
	contains(f.message, "runs its build (setup.py or build backend)")
}

test_upgrade_that_already_had_script_quiet if {
	p := object.union(esbuild, {"change": "upgraded", "previous_version": "0.18.0", "previous_install_script": true})
	count(r.deny) == 0 with input as {"deps": {"packages": [p]}}
}

test_upgrade_gaining_script_fires if {
	p := object.union(esbuild, {"change": "upgraded", "previous_version": "0.18.0"})
	some f in r.deny with input as {"deps": {"packages": [p]}}
	f.message == "npm package esbuild upgraded from 0.18.0 to 0.19.0 runs an install script when installed"
}

test_no_script_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": [object.union(esbuild, {"install_script": false})]}}
}

test_removed_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": [object.union(esbuild, {"change": "removed"})]}}
}
