package rules.mcp_unpinned_launch_test

import data.rules.mcp_unpinned_launch

test_npx_no_version_fires if {
	fs := mcp_unpinned_launch.deny with input as {"mcp_servers": [{
		"name": "github", "config": "mcp.json", "transport": "stdio", "file": ".mcp.json", "line": 3,
		"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
		"launcher": "npx", "package": "@modelcontextprotocol/server-github", "version": "", "pinned": false,
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "mcp-unpinned-launch"
	f.severity == "medium"
	f.property == "review"
	f.file == ".mcp.json"
	f.line == 3
	contains(f.message, "@modelcontextprotocol/server-github")
	contains(f.message, "with no version")
}

test_latest_and_docker_tag_fire if {
	fs := mcp_unpinned_launch.deny with input as {"mcp_servers": [
		{
			"name": "fs", "config": "vscode", "file": ".vscode/mcp.json", "line": 4,
			"launcher": "npx", "package": "mcp-fs", "version": "latest", "pinned": false,
		},
		{
			"name": "db", "config": "mcp.json", "file": ".mcp.json", "line": 9,
			"launcher": "docker", "package": "ghcr.io/acme/db-mcp", "version": "1.2", "pinned": false,
		},
	]}
	count(fs) == 2
	msgs := {f.message | some f in fs}
	some m1 in msgs
	contains(m1, "at @latest")
	some m2 in msgs
	contains(m2, `at unpinned version "1.2"`)
}

test_pinned_and_direct_binary_quiet if {
	count(mcp_unpinned_launch.deny) == 0 with input as {"mcp_servers": [
		{
			"name": "github", "config": "mcp.json", "file": ".mcp.json", "line": 3,
			"launcher": "npx", "package": "@modelcontextprotocol/server-github", "version": "2025.4.8", "pinned": true,
		},
		{"name": "local", "config": "mcp.json", "file": ".mcp.json", "line": 9, "command": "/usr/local/bin/mcp-local", "launcher": "", "pinned": false},
	]}
}

test_empty_input_quiet if {
	count(mcp_unpinned_launch.deny) == 0 with input as {}
}

test_server_without_fields_quiet if {
	count(mcp_unpinned_launch.deny) == 0 with input as {"mcp_servers": [{"name": "x"}]}
}
