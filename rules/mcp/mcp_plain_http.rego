# METADATA
# title: MCP server reached over plain HTTP
# description: |
#   A remote MCP server is reached with http:// to a host other than loopback,
#   or a local server is a bridge given such an address as an argument.
#   Tool calls, their results (source code, issue text, query results) and any
#   Authorization header cross the network unencrypted, and anyone on the path
#   can read them or rewrite a tool result into a prompt injection.
# related_resources:
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
#     description: Model Context Protocol — security best practices
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/transports
#     description: Model Context Protocol — transports (Streamable HTTP)
# custom:
#   id: mcp-plain-http
#   property: network
#   severity: medium
#   remediation: Use an https:// URL for the server (or reach it over loopback through a local TLS-terminating proxy or tunnel).
package rules.mcp_plain_http

import data.lib.mcp
import data.lib.sa

deny contains f if {
	some s in mcp.servers
	s.plain_http == true
	f := sa.finding(rego.metadata.chain(), s, _message(s))
}

# A local (stdio) server given an http:// address as an argument is a
# bridge: the agent talks to it locally, and it to the remote over HTTP.
_message(s) := sprintf("%s is a local bridge to a server it reaches over plain HTTP (an http:// address in its arguments): the tool calls and results it relays cross the network unencrypted", [mcp.label(s)]) if {
	object.get(s, "transport", "") == "stdio"
	object.get(s, "url", "") == ""
} else := sprintf("%s is reached over plain HTTP%s: tool calls, results and credentials cross the network unencrypted", [mcp.label(s), _host(s)])

# The host only: the URL's path and query are not needed to find the server.
_host(s) := sprintf(" at %s", [host]) if {
	u := object.get(s, "url", "")
	is_string(u)
	rest := trim_prefix(lower(u), "http://")
	rest != lower(u)
	authority := split(rest, "/")[0]
	parts := split(authority, "@")
	host := parts[count(parts) - 1]
	host != ""
} else := ""
