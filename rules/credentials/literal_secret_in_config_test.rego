package rules.literal_secret_in_config_test

import data.rules.literal_secret_in_config

pat := {
	"kind": "github-pat-classic", "lifetime": "long", "fingerprint": "0a1b2c3d4e5f",
	"where": "env", "context": "MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN",
	"readable_by_agent": true, "file": ".mcp.json", "line": 8,
}

test_long_lived_pat_fires if {
	fs := literal_secret_in_config.deny with input as {"credentials": [pat]}
	count(fs) == 1
	some f in fs
	f.rule_id == "literal-secret-in-config"
	f.severity == "high"
	f.property == "credentials"
	f.file == ".mcp.json"
	f.line == 8
	f.message == "Literal github-pat-classic (long-lived, fingerprint 0a1b2c3d4e5f) in MCP server github env GITHUB_PERSONAL_ACCESS_TOKEN, readable by the agent"
}

test_short_lived_minimal_fields if {
	fs := literal_secret_in_config.deny with input as {"credentials": [{
		"kind": "github-app-installation-token", "lifetime": "short", "fingerprint": "ffeeddccbbaa",
		"where": "git-config", "file": ".git/config", "line": 12,
	}]}
	count(fs) == 1
	some f in fs
	contains(f.message, "short-lived")
	contains(f.message, "a git-config value")
}

test_live_credentials_left_to_live_rules if {
	count(literal_secret_in_config.deny) == 0 with input as {"credentials": [
		object.union(pat, {"where": "live-env"}),
		object.union(pat, {"where": "live-file"}),
	]}
}

test_hardened_quiet if {
	count(literal_secret_in_config.deny) == 0 with input as {"credentials": [], "workloads": []}
}

test_empty_input_quiet if {
	count(literal_secret_in_config.deny) == 0 with input as {}
}

# The message carries the fingerprint, never anything that looks like the value.
test_message_has_no_value if {
	fs := literal_secret_in_config.deny with input as {"credentials": [pat]}
	some f in fs
	not contains(f.message, "ghp_")
	not regex.match(`[0-9]+$`, f.message)
}

# A database password in a platform service's definition is no finding; a
# real token there still is.
test_platform_workload_generic_secret_quiet if {
	fs := literal_secret_in_config.deny with input as {
		"workloads": [{"id": "compose:c.yml:db", "judged": false, "role": "platform"}],
		"credentials": [
			{"kind": "generic-secret", "lifetime": "unknown", "fingerprint": "aa", "where": "env", "workload": "compose:c.yml:db", "file": "c.yml", "line": 5},
			{"kind": "github-pat-classic", "lifetime": "long", "fingerprint": "bb", "where": "env", "workload": "compose:c.yml:db", "file": "c.yml", "line": 6},
		],
	}
	count(fs) == 1
	some f in fs
	f.line == 6
}

test_judged_workload_generic_secret_fires if {
	fs := literal_secret_in_config.deny with input as {
		"workloads": [{"id": "compose:c.yml:agent", "judged": true, "role": "agent"}],
		"credentials": [{"kind": "generic-secret", "lifetime": "unknown", "fingerprint": "aa", "where": "env", "workload": "compose:c.yml:agent", "file": "c.yml", "line": 5}],
	}
	count(fs) == 1
}
