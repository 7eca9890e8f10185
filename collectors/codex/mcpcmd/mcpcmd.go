// Package mcpcmd reads an MCP server's env entries and tells a plain-HTTP
// URL, for the codex and gemini collectors (args and URLs are redacted by
// secrets.HideArgs and secrets.Hide, as in every collector). How a server is
// launched (npx pkg@1.2.3, uvx, docker run) is read by mcp.ParseLaunch, the
// one launcher parser of every MCP config format.
package mcpcmd
