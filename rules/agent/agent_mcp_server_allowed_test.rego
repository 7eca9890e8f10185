package rules.agent_mcp_server_allowed_test

import data.rules.agent_mcp_server_allowed

settings := ".claude/settings.json"

claude(allow, deny, ask) := {
	"tool": "claude-code", "scope": "project", "profile": "", "file": settings, "line": 1,
	"allow": [{"value": v, "file": settings, "line": i + 3} | some i, v in allow],
	"deny": [{"value": v, "file": settings, "line": i + 20} | some i, v in deny],
	"ask": [{"value": v, "file": settings, "line": i + 30} | some i, v in ask],
}

doc(allow, deny, ask) := {"agents": [claude(allow, deny, ask)]}

test_database_server_high if {
	fs := agent_mcp_server_allowed.deny with input as doc(["Read", "mcp__supabase"], [], [])
	count(fs) == 1
	some f in fs
	f.rule_id == "agent-mcp-server-allowed"
	f.property == "review"
	f.severity == "high"
	f.line == 4
	contains(f.message, `every tool of MCP server "supabase" (a database)`)
}

test_star_form_and_deploy_platform_high if {
	fs := agent_mcp_server_allowed.deny with input as doc(["mcp__vercel__*"], [], [])
	some f in fs
	f.severity == "high"
	contains(f.message, "a deployment or cloud platform")
}

# the server's name says nothing; its configuration's package does
test_kind_from_the_configured_package if {
	d := object.union(doc(["mcp__data"], [], []), {"mcp_servers": [{
		"name": "data", "config": "mcp.json", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/app"],
		"package": "@modelcontextprotocol/server-postgres", "file": ".mcp.json", "line": 3,
	}]})
	fs := agent_mcp_server_allowed.deny with input as d
	some f in fs
	f.severity == "high"
	contains(f.message, "a database")
}

test_docs_server_low if {
	fs := agent_mcp_server_allowed.deny with input as doc(["mcp__context7", "mcp__aws-docs"], [], [])
	count(fs) == 2
	every f in fs {
		f.severity == "low"
		contains(f.message, "a documentation or search server")
	}
}

test_other_server_medium if {
	fs := agent_mcp_server_allowed.deny with input as doc(["mcp__playwright"], [], [])
	some f in fs
	f.severity == "medium"
	contains(f.message, `MCP server "playwright" (a server the scan cannot classify)`)
}

# one tool, not the whole server
test_single_tool_quiet if {
	count(agent_mcp_server_allowed.deny) == 0 with input as doc(["mcp__supabase__list_tables", "mcp__supabase__get_*"], [], [])
}

# the settings chose which of the server's tools ask or are denied
test_curated_server_quiet if {
	count(agent_mcp_server_allowed.deny) == 0 with input as doc(["mcp__supabase"], ["mcp__supabase__execute_sql"], [])
	count(agent_mcp_server_allowed.deny) == 0 with input as doc(["mcp__supabase"], [], ["mcp__supabase__apply_migration"])
}

# a deny of another server's tool is no choice about this one
test_other_servers_deny_fires if {
	count(agent_mcp_server_allowed.deny) == 1 with input as doc(["mcp__supabase"], ["mcp__supabase-docs__search"], [])
}

test_whole_server_asked_quiet if {
	count(agent_mcp_server_allowed.deny) == 0 with input as doc(["mcp__supabase"], [], ["mcp__supabase"])
}

test_deny_in_other_settings_file_quiet if {
	count(agent_mcp_server_allowed.deny) == 0 with input as {"agents": [
		claude(["mcp__supabase"], [], []),
		object.union(claude([], ["mcp__supabase__delete_branch"], []), {"scope": "user", "file": "~/.claude/settings.json"}),
	]}
}

# agent-can-push and agent-can-merge judge a GitHub server
test_github_server_left_to_push_and_merge if {
	count(agent_mcp_server_allowed.deny) == 0 with input as doc(["mcp__github"], [], [])
}

test_workflow_agent_quiet if {
	a := object.union(claude(["mcp__supabase"], [], []), {"scope": "workflow", "context": "workflow \"x\" job \"y\""})
	count(agent_mcp_server_allowed.deny) == 0 with input as {"agents": [a]}
}

test_empty_input_quiet if {
	count(agent_mcp_server_allowed.deny) == 0 with input as {}
}
