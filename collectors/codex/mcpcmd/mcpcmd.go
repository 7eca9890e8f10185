// Package mcpcmd cleans an MCP server's args and URL of literal secrets and
// reads its env entries, for the codex and gemini collectors. How a server is
// launched (npx pkg@1.2.3, uvx, docker run) is read by mcp.ParseLaunch, the
// one launcher parser of every MCP config format.
package mcpcmd
