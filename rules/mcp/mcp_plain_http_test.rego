package rules.mcp_plain_http_test

import data.rules.mcp_plain_http

test_plain_http_fires if {
	fs := mcp_plain_http.deny with input as {"mcp_servers": [{
		"name": "tickets", "config": "vscode", "transport": "http", "file": ".vscode/mcp.json", "line": 6,
		"url": "http://redacted@tickets.internal.example:8080/mcp?key=redacted", "plain_http": true,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "mcp-plain-http"
	f.severity == "medium"
	f.property == "network"
	f.file == ".vscode/mcp.json"
	f.line == 6
	contains(f.message, "at tickets.internal.example:8080:")
	not contains(f.message, "key=")
}

test_https_quiet if {
	count(mcp_plain_http.deny) == 0 with input as {"mcp_servers": [{
		"name": "tickets", "config": "vscode", "transport": "http", "file": ".vscode/mcp.json", "line": 6,
		"url": "https://tickets.example/mcp", "plain_http": false,
	}]}
}

test_empty_input_quiet if {
	count(mcp_plain_http.deny) == 0 with input as {}
}

# A stdio bridge given an http:// server address says so.
test_stdio_bridge_message if {
	fs := mcp_plain_http.deny with input as {"mcp_servers": [{
		"name": "kali", "config": "mcp.json", "transport": "stdio", "file": ".mcp.json", "line": 9,
		"command": "python3", "args": ["bridge.py", "--server", "http://kali.lan:5000/"], "plain_http": true,
	}]}
	some f in fs
	contains(f.message, "is a local bridge to a server it reaches over plain HTTP")
}
