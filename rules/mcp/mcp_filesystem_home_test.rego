package rules.mcp_filesystem_home_test

import data.rules.mcp_filesystem_home

server(args) := {"mcp_servers": [{
	"name": "filesystem", "source": "codex", "launcher": "npx", "package": "@modelcontextprotocol/server-filesystem",
	"args": array.concat(["-y", "@modelcontextprotocol/server-filesystem"], args), "file": ".codex/config.toml", "line": 8,
}]}

test_home_directory_fires if {
	fs := mcp_filesystem_home.deny with input as server(["/Users/dev/dotfiles", "/Users/dev"])
	count(fs) == 1
	some f in fs
	f.rule_id == "mcp-filesystem-home"
	f.severity == "high"
	f.property == "credentials"
	f.line == 8
	contains(f.message, "serves /Users/dev (the home directory)")
}

test_root_tilde_and_windows_home_fire if {
	every a in ["/", "~", "$HOME", "/home/agent/", "/root", `C:\Users\dev`] {
		count(mcp_filesystem_home.deny) == 1 with input as server([a])
	}
}

test_project_directories_quiet if {
	count(mcp_filesystem_home.deny) == 0 with input as server(["/Users/dev/projects/app", ".", "/workspace", "/home/agent/repo"])
}

test_other_servers_quiet if {
	count(mcp_filesystem_home.deny) == 0 with input as {"mcp_servers": [{"name": "git", "package": "mcp-server-git", "args": ["--repository", "/Users/dev"], "file": ".mcp.json", "line": 2}]}
}
