package rules.git_credential_store_test

import data.rules.git_credential_store

test_store_fires if {
	fs := git_credential_store.deny with input as {"git_configs": [{
		"file": ".gitconfig", "line": 1,
		"credential_helpers": [{"value": "store", "file": ".gitconfig", "line": 4}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "git-credential-store"
	f.severity == "high"
	f.property == "credentials"
	f.file == ".gitconfig"
	f.line == 4
}

test_store_with_file_and_path_forms_fire if {
	fs := git_credential_store.deny with input as {"git_configs": [{"credential_helpers": [
		{"value": "store --file /workspace/.creds", "file": ".git/config", "line": 9},
		{"value": "!git credential-store --file ~/.x", "file": ".git/config", "line": 10},
		{"value": "/usr/lib/git-core/git-credential-store", "file": ".git/config", "line": 11},
	]}]}
	count(fs) == 3
}

test_hardened_quiet if {
	count(git_credential_store.deny) == 0 with input as {"git_configs": [{"credential_helpers": [
		{"value": "", "file": ".gitconfig", "line": 3},
		{"value": "!gh auth git-credential", "file": ".gitconfig", "line": 4},
		{"value": "cache --timeout=300", "file": ".gitconfig", "line": 5},
		{"value": "storeish", "file": ".gitconfig", "line": 6},
	]}]}
}

test_empty_input_quiet if {
	count(git_credential_store.deny) == 0 with input as {}
}
