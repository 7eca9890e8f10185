package rules.live_push_credential_test

import data.rules.live_push_credential as r

checkout := {
	"kind": "github-app-installation-token", "lifetime": "short", "source": "git-config", "can_push": true,
	"name": "/home/runner/work/_temp/git-credentials-3b1f2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.config [http.https://github.com/.extraheader]",
	"file": "live/credentials", "line": 1,
}

test_checkout_token_fires if {
	some f in r.deny with input as {"live": {"credentials": [checkout]}}
	f.property == "review"
	f.message == "file /home/runner/work/_temp/git-credentials-*.config [http.https://github.com/.extraheader] holds a credential that can push code: github-app-installation-token"
}

test_non_push_quiet if {
	c := object.union(checkout, {"can_push": false, "kind": "openai-api-key"})
	count(r.deny) == 0 with input as {"live": {"credentials": [c]}}
}

test_expired_quiet if {
	c := object.union(checkout, {"expired": true})
	count(r.deny) == 0 with input as {"live": {"credentials": [c]}}
}
