package rules.dependency_downgraded_test

import data.rules.dependency_downgraded as r

text := {
	"ecosystem": "golang", "name": "golang.org/x/text", "version": "v0.3.7", "previous_version": "v0.3.8",
	"change": "downgraded", "file": "go.mod", "line": 9,
}

test_downgrade_fires if {
	fs := r.deny with input as {"deps": {"packages": [text]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-downgraded"
	f.category == "dependencies"
	f.message == "Go package golang.org/x/text downgraded from v0.3.8 to v0.3.7"
}

test_upgrade_quiet if {
	p := object.union(text, {"change": "upgraded", "version": "v0.3.9"})
	count(r.deny) == 0 with input as {"deps": {"packages": [p]}}
}
