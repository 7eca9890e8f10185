# Package lib.mcp holds what the MCP rules share.
package lib.mcp

servers := object.get(input, "mcp_servers", [])

# label names a server and the config it comes from, e.g. `MCP server "github" (mcp.json)`.
label(s) := sprintf("MCP server %q (%s)", [object.get(s, "name", ""), c]) if {
	c := object.get(s, "config", "")
	c != ""
} else := sprintf("MCP server %q", [object.get(s, "name", "")])
