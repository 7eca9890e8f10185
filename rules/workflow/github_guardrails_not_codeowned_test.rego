package rules.github_guardrails_not_codeowned_test

import data.rules.github_guardrails_not_codeowned as r

repo(co) := {"owner": "o", "name": "r", "default_branch": "main", "file": "github/o/r", "line": 1, "code_owners": co}

test_unowned_fires if {
	fs := r.deny with input as {"repository": repo({"found": true, "file": ".github/CODEOWNERS", "unowned": [".github/workflows/claude.yml"]})}
	count(fs) == 1
	some f in fs
	contains(f.message, ".github/CODEOWNERS leaves this guardrail file no code owner: .github/workflows/claude.yml")
}

test_no_file_fires if {
	fs := r.deny with input as {"repository": repo({"found": false, "file": "", "unowned": ["a", "b", "c", "d", "e", "f", "g"]})}
	some f in fs
	contains(f.message, "there is no CODEOWNERS file")
	contains(f.message, "and 2 more")
}

test_owned_quiet if {
	count(r.deny) == 0 with input as {"repository": repo({"found": true, "file": "CODEOWNERS", "unowned": []})}
}
