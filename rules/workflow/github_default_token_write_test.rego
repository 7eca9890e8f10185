package rules.github_default_token_write_test

import data.rules.github_default_token_write as r

repo(actions) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "actions": actions}

test_write_fires if {
	fs := r.deny with input as {"repository": repo({"default_permissions": "write"})}
	count(fs) == 1
	some f in fs
	f.property == "credentials"
}

test_read_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"default_permissions": "read"})}
}

test_unknown_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"default_permissions": ""})}
}
