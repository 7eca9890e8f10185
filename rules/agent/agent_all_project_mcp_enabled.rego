# METADATA
# title: Every MCP server a repository declares starts without review
# description: |
#   Claude Code's enableAllProjectMcpServers approves every server in the
#   project's .mcp.json without asking. Anyone who can change that file — a pull
#   request, a compromised dependency, the agent itself — adds a server that
#   runs as the user with the user's credentials and network, and it starts the
#   next time the agent does.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/mcp
#     description: Claude Code — project-scoped MCP servers and approval
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — enableAllProjectMcpServers, enabledMcpjsonServers
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
#     description: Model Context Protocol — security best practices
# custom:
#   id: agent-all-project-mcp-enabled
#   property: review
#   severity: medium
#   remediation: Remove enableAllProjectMcpServers and list the reviewed servers by name in enabledMcpjsonServers, so a server added later needs an explicit approval.
package rules.agent_all_project_mcp_enabled

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.enable_all_project_mcp.value == true
	f := sa.finding(rego.metadata.chain(), a.enable_all_project_mcp, sprintf("%s enables every project MCP server (enableAllProjectMcpServers): a server added to the repository starts without review", [agent.label(a)]))
}
