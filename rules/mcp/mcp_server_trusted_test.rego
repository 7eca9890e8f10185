package rules.mcp_server_trusted_test

import data.rules.mcp_server_trusted

test_gemini_trust_fires if {
	fs := mcp_server_trusted.deny with input as {"mcp_servers": [{
		"name": "db", "config": "gemini", "transport": "stdio", "file": ".gemini/settings.json", "line": 10,
		"trusted": {"value": true, "file": ".gemini/settings.json", "line": 14}, "all_tools": false,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "mcp-server-trusted"
	f.severity == "medium"
	f.property == "review"
	f.file == ".gemini/settings.json"
	f.line == 14
}

test_copilot_all_tools_fires if {
	fs := mcp_server_trusted.deny with input as {"mcp_servers": [{
		"name": "sentry", "config": "copilot", "transport": "http", "file": "copilot-mcp.json", "line": 3,
		"all_tools": true,
	}]}
	count(fs) == 1
	some f in fs
	f.line == 3
	contains(f.message, `tools ["*"]`)
}

test_hardened_quiet if {
	count(mcp_server_trusted.deny) == 0 with input as {"mcp_servers": [{
		"name": "db", "config": "gemini", "transport": "stdio", "file": ".gemini/settings.json", "line": 10,
		"trusted": {"value": false, "file": ".gemini/settings.json", "line": 14}, "all_tools": false,
	}]}
}

test_empty_input_quiet if {
	count(mcp_server_trusted.deny) == 0 with input as {}
}
