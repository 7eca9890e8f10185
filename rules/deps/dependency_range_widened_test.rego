package rules.dependency_range_widened_test

import data.rules.dependency_range_widened as r

test_pinned_to_range_fires if {
	fs := r.deny with input as {"deps": {"widened_ranges": [{
		"ecosystem": "npm", "name": "lodash", "from": "4.17.20", "to": "^4.17.21",
		"file": "package.json", "line": 12,
	}]}}
	count(fs) == 1
	some f in fs
	f.rule_id == "dependency-range-widened"
	f.severity == "low"
	f.line == 12
	f.message == "npm requirement on lodash widened from 4.17.20 to ^4.17.21"
}

test_new_unbounded_fires if {
	fs := r.deny with input as {"deps": {"widened_ranges": [{
		"ecosystem": "pypi", "name": "requests", "from": "", "to": "",
		"file": "requirements.txt", "line": 2,
	}]}}
	some f in fs
	f.message == "new Python requirement on requests accepts any version (no version given)"
}

test_none_quiet if {
	count(r.deny) == 0 with input as {"deps": {"packages": []}}
}
