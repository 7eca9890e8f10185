package rules.git_checkout_token_persisted_test

import data.rules.git_checkout_token_persisted

test_extraheader_fires if {
	fs := git_checkout_token_persisted.deny with input as {"git_configs": [{
		"file": ".git/config", "line": 1,
		"extra_headers": [{"value": "http.https://github.com/.extraheader", "file": ".git/config", "line": 8}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "git-checkout-token-persisted"
	f.severity == "high"
	f.property == "credentials"
	f.file == ".git/config"
	f.line == 8
	contains(f.message, "http.https://github.com/.extraheader")
	not contains(lower(f.message), "basic ")
}

test_hardened_quiet if {
	count(git_checkout_token_persisted.deny) == 0 with input as {"git_configs": [{
		"file": ".git/config", "line": 1, "extra_headers": [], "credential_helpers": [],
	}]}
}

test_empty_input_quiet if {
	count(git_checkout_token_persisted.deny) == 0 with input as {}
}
