package rules.live_credential_exposed_test

import data.rules.live_credential_exposed as r

cred(source, name, extra) := object.union({"kind": "github-pat-classic", "lifetime": "long", "fingerprint": "abc", "source": source, "name": name, "file": "live/credentials", "line": 1}, extra)

test_env_fires if {
	some f in r.deny with input as {"live": {"credentials": [cred("env", "GITHUB_TOKEN", {})]}}
	f.message == "environment variable GITHUB_TOKEN holds a credential: github-pat-classic, lifetime long"
	f.file == "live/credentials"
}

test_file_fires if {
	some f in r.deny with input as {"live": {"credentials": [cred("file", "/root/.aws/credentials [default.aws_secret_access_key]", {"kind": "aws-secret-access-key"})]}}
	startswith(f.message, "file /root/.aws/credentials")
}

test_expired_quiet if count(r.deny) == 0 with input as {"live": {"credentials": [cred("service-account", "/var/run/secrets/x/token", {"expired": true})]}}

test_agent_reported_elsewhere if count(r.deny) == 0 with input as {"live": {"credentials": [cred("ssh-agent", "SSH_AUTH_SOCK", {"kind": "ssh-agent"})]}}
