# METADATA
# title: MCP server package is not on the team's allowlist
# description: |
#   Every MCP server an agent launches runs with the agent's credentials. This
#   team only allows MCP packages that security has reviewed, listed in the
#   policy file as params.allowed_mcp_packages.
# related_resources:
#   - ref: https://modelcontextprotocol.io/specification/draft/basic/security_best_practices
#     description: MCP security best practices
# custom:
#   id: mcp-package-allowlist
#   property: review
#   severity: high
#   remediation: Ask security to review the package and add it to params.allowed_mcp_packages, or remove the server.
package rules.mcp_package_allowlist

import data.lib.sa

deny contains f if {
	some s in input.mcp_servers
	s.package != ""
	not s.package in sa.param("allowed_mcp_packages", [])
	f := sa.finding(rego.metadata.chain(), s, sprintf("MCP server %q launches %s, which is not on allowed_mcp_packages", [s.name, s.package]))
}
