package rules.codespace_repository_write_test

import data.rules.codespace_repository_write as r

f := ".devcontainer/devcontainer.json"

dc(grants) := {"workloads": [{"id": concat("", ["devcontainer:", f]), "source": "devcontainer", "name": "SDK", "file": f, "line": 1, "repo_grants": grants}]}

g(repo, write, line) := {"repo": repo, "write": write, "file": f, "line": line}

test_contents_write_fires if {
	fs := r.deny with input as dc([g("acme/assets", ["contents"], 22)])
	count(fs) == 1
	some x in fs
	x.rule_id == "codespace-repository-write"
	x.property == "credentials"
	x.severity == "medium"
	x.line == 22
	contains(x.message, "asks write access to acme/assets (contents) for the codespace's token")
}

test_write_all_fires if {
	some x in r.deny with input as dc([g("acme/*", ["*"], 22)])
	contains(x.message, "acme/* (every permission) for")
}

test_read_only_quiet if {
	count(r.deny) == 0 with input as dc([g("acme/docs", [], 22)])
}

test_empty_input_quiet if {
	count(r.deny) == 0 with input as {}
}
