# METADATA
# title: MCP server's tool calls run without confirmation
# description: |
#   The MCP server is trusted wholesale: Gemini CLI "trust": true skips every
#   confirmation for its tools, and a Copilot coding agent server with tools
#   ["*"] exposes every tool it has, present and future, for autonomous use.
#   A prompt injection in anything the agent reads can then call any of the
#   server's tools — write to repositories, send messages, change data — and
#   no person sees the call first. Claude Code's allow rules that name a
#   whole server (mcp__supabase) are judged by agent-mcp-server-allowed.
# related_resources:
#   - ref: https://github.com/google-gemini/gemini-cli/blob/main/docs/tools/mcp-server.md
#     description: Gemini CLI — MCP server configuration (trust)
#   - ref: https://docs.github.com/en/copilot/concepts/agents/coding-agent/mcp-and-coding-agent
#     description: GitHub — MCP and Copilot coding agent (tools are used autonomously, without approval)
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
#     description: Model Context Protocol — security best practices
# custom:
#   id: mcp-server-trusted
#   property: review
#   severity: medium
#   remediation: Remove trust from the server (Gemini includeTools/excludeTools to narrow it instead) and list only the read-only tools the agent needs in the Copilot tools array.
package rules.mcp_server_trusted

import data.lib.mcp
import data.lib.sa

deny contains f if {
	some s in mcp.servers
	loc := _trusted(s)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s %s: its tool calls run without a person confirming them", [mcp.label(s), _why(s)]))
}

_trusted(s) := s.trusted if {
	s.trusted.value == true
} else := s if {
	s.all_tools == true
}

_why(s) := "is trusted" if s.trusted.value == true

else := `exposes every tool (tools ["*"])`
