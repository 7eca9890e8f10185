package rules.mcp_package_allowlist_test

import data.rules.mcp_package_allowlist

server := {"name": "github", "package": "@modelcontextprotocol/server-github", "file": ".mcp.json", "line": 3}

test_unlisted_package_fires if {
	fs := mcp_package_allowlist.deny with input as {"mcp_servers": [server], "params": {}}
	count(fs) == 1
	some f in fs
	f.rule_id == "mcp-package-allowlist"
	f.line == 3
}

test_listed_package_quiet if {
	count(mcp_package_allowlist.deny) == 0 with input as {
		"mcp_servers": [server],
		"params": {"allowed_mcp_packages": ["@modelcontextprotocol/server-github"]},
	}
}
