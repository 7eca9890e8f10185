package rules.git_remote_url_credentials_test

import data.rules.git_remote_url_credentials

test_credential_url_fires_without_value if {
	fs := git_remote_url_credentials.deny with input as {"git_configs": [{
		"file": ".git/config", "line": 1,
		"credential_urls": [{"value": "https://x-access-token:ghp_notredacted@github.com/org/repo.git", "file": ".git/config", "line": 10}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "git-remote-url-credentials"
	f.severity == "high"
	f.file == ".git/config"
	f.line == 10
	f.message == "git config has a remote URL with embedded credentials (https://***@github.com/org/repo.git)"
}

test_hardened_quiet if {
	count(git_remote_url_credentials.deny) == 0 with input as {"git_configs": [{"file": ".git/config", "line": 1, "credential_urls": []}]}
}

test_empty_input_quiet if {
	count(git_remote_url_credentials.deny) == 0 with input as {}
}
