package rules.image_secret_build_arg_test

import data.rules.image_secret_build_arg

test_sensitive_arg_fires if {
	fs := image_secret_build_arg.deny with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"env": [
			{"name": "NPM_TOKEN", "sensitive_name": true, "file": "Dockerfile", "line": 3},
			{"name": "NODE_ENV", "sensitive_name": false, "file": "Dockerfile", "line": 4},
		],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "image-secret-build-arg"
	f.severity == "medium"
	f.property == "credentials"
	f.file == "Dockerfile"
	f.line == 3
	contains(f.message, "NPM_TOKEN")
}

test_literal_secret_left_to_credentials_rule if {
	count(image_secret_build_arg.deny) == 0 with input as {"images": [{"env": [{
		"name": "GITHUB_TOKEN", "sensitive_name": true,
		"secret": {"kind": "github-pat-classic", "lifetime": "long", "fingerprint": "a1b2c3d4e5f6"},
		"file": "Dockerfile", "line": 3,
	}]}]}
}

test_hardened_quiet if {
	count(image_secret_build_arg.deny) == 0 with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"env": [{"name": "NODE_VERSION", "sensitive_name": false, "file": "Dockerfile", "line": 2}],
	}]}
}

test_empty_input_quiet if {
	count(image_secret_build_arg.deny) == 0 with input as {}
}
