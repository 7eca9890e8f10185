# METADATA
# title: MCP filesystem server is given the home directory or the root
# description: |
#   The MCP filesystem server (@modelcontextprotocol/server-filesystem, or a
#   filesystem MCP server of another name) serves every file under the
#   directories its command line names, read and write, to the agent's tool
#   calls. Given the user's whole home directory (/Users/dev, /home/dev, ~,
#   $HOME) or the filesystem root, it hands the agent ~/.ssh, ~/.aws,
#   ~/.config/gh and every other credential there, past any Read deny rule of
#   the agent (those hold for the agent's own tools, not for an MCP server's),
#   and lets it rewrite shell start-up files that run outside the sandbox. A
#   project directory, or a directory inside the home directory, is not
#   reported.
# related_resources:
#   - ref: https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem
#     description: MCP filesystem server — allowed directories from the command line
#   - ref: https://modelcontextprotocol.io/docs/concepts/roots
#     description: MCP — roots bound what a server may touch
# custom:
#   id: mcp-filesystem-home
#   property: credentials
#   severity: high
#   remediation: Give the filesystem server only the project's directory (or a scratch directory), never the home directory or /; keep credentials out of every directory it serves.
package rules.mcp_filesystem_home

import data.lib.mcp
import data.lib.sa

deny contains f if {
	some s in mcp.servers
	_filesystem(s)
	some a in object.get(s, "args", [])
	what := _broad(a)
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s serves %s (%s) to the agent's tool calls: ~/.ssh, ~/.aws and every other credential there are readable, and writable, through it", [mcp.label(s), a, what]))
}

_filesystem(s) if contains(lower(object.get(s, "package", "")), "server-filesystem")

_filesystem(s) if regex.match(`(?i)(^|[/@_-])(filesystem|fs)-?mcp|mcp-?(server-)?(filesystem|fs)($|[@_-])`, object.get(s, "package", ""))

_broad(a) := "the filesystem root" if trim_right(a, "/") == ""

else := "the home directory" if a in {"~", "~/", "$HOME", "${HOME}", "$HOME/", "${HOME}/", "%USERPROFILE%"}

else := "the home directory" if regex.match(`^(/Users|/home)/[^/]+/?$|^/root/?$|^[A-Za-z]:[\\/]+Users[\\/]+[^\\/]+[\\/]?$`, a)
