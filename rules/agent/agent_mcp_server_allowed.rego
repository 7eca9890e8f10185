# METADATA
# title: Claude Code allows every tool of an MCP server without a prompt
# description: |
#   An allow rule of Claude Code's settings names a whole MCP server
#   (mcp__supabase, mcp__server__*): every tool that server has, present and
#   future, runs without a person confirming the call, as Gemini CLI's
#   "trust": true and a Copilot server's tools ["*"] do (mcp-server-trusted).
#   A prompt injection in anything the agent reads can then call any of them.
#   How much that matters depends on the server, judged by its name and, when
#   the scan holds its configuration, its package, command and URL: a
#   database (Supabase, Postgres, MySQL, MongoDB, Redis…), a deployment or
#   cloud platform (Vercel, Netlify, Cloudflare, AWS, GCP, Azure, Kubernetes,
#   Docker, Terraform), a payments platform or a shell server can change or
#   delete production data and services (high); a documentation or search
#   server (Context7, DeepWiki, a docs or web search server) only reads,
#   though what the agent sends it leaves the machine (low); any other
#   server is medium. Settings that deny or ask for some of that server's
#   tools (mcp__supabase__execute_sql in deny) have chosen what it may do
#   and are not reported; a deny or ask of the whole server holds the allow
#   back. A GitHub server is judged by agent-can-push and agent-can-merge.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam#tool-specific-permission-rules
#     description: Claude Code — MCP permission rules (mcp__server approves every tool of the server)
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
#     description: Model Context Protocol — security best practices
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-mcp-server-allowed
#   property: review
#   severity: medium
#   remediation: Allow the server's read-only tools one by one (mcp__supabase__list_tables) instead of the whole server, and put the tools that write, deploy or delete (mcp__supabase__execute_sql, mcp__supabase__apply_migration) in permissions.ask or permissions.deny; give the server a read-only or development-only credential.
package rules.agent_mcp_server_allowed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.tool == "claude-code"
	not agent.in_workflow(a)
	some r in object.get(a, "allow", [])
	server := _whole_server(r.value)
	not contains(lower(server), "github")
	not agent.held_back(a, sprintf("mcp__%s__sandbox_audit_probe", [server]))
	not _curated(a, server)
	[kind, severity, what] := _kind(server)
	f := object.union(
		sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: every tool of MCP server %q (%s) runs unasked, %s", [agent.label(a), r.value, server, kind, what])),
		{"severity": severity},
	)
}

# _whole_server(rule) is the server an allow rule grants whole: mcp__name,
# or mcp__name__* .
_whole_server(rule) := parts[1] if {
	is_string(rule)
	startswith(rule, "mcp__")
	parts := split(rule, "__")
	count(parts) == 2
	parts[1] != ""
} else := parts[1] if {
	is_string(rule)
	startswith(rule, "mcp__")
	parts := split(rule, "__")
	count(parts) == 3
	parts[1] != ""
	parts[2] == "*"
}

# Some deny or ask rule of the same tool's settings names one of the
# server's tools: someone chose what it may do unasked.
_curated(a, server) if {
	some b in agent.peers(a)
	some r in array.concat(object.get(b, "deny", []), object.get(b, "ask", []))
	is_string(r.value)
	parts := split(r.value, "__")
	count(parts) > 2
	parts[0] == "mcp"
	parts[1] == server
}

# What the scan knows of the server: its name, and the package, command,
# arguments and URL of the configurations that define it.
_text(server) := lower(concat(" ", array.concat([server], [t |
	some s in object.get(input, "mcp_servers", [])
	object.get(s, "name", "") == server
	t := concat(" ", array.concat(
		[object.get(s, "package", ""), object.get(s, "command", ""), object.get(s, "url", "")],
		[x | some x in object.get(s, "args", []); is_string(x)],
	))
])))

_kind(server) := ["a documentation or search server", "low", "though it only reads: what the agent sends it leaves the machine"] if {
	regex.match(`context7|deepwiki|docs?([^a-z]|$)|documentation|sequential[-_]?thinking|perplexity|brave[-_]?search|tavily|exa[-_]?(search|mcp)|web[-_]?search|(^|[^a-z])search`, _text(server))
} else := ["a database", "high", "so a prompt injection can run its queries, migrations and deletes"] if {
	regex.match(`supabase|postgres|(^|[^a-z])pg([^a-z]|$)|mysql|mariadb|mongo|redis|sqlite|neon|planetscale|prisma|database|(^|[^a-z])db([^a-z]|$)|sql|dynamo|firestore|firebase|bigquery|snowflake|clickhouse|elasticsearch`, _text(server))
} else := ["a deployment or cloud platform", "high", "so a prompt injection can deploy, reconfigure or delete services"] if {
	regex.match(`vercel|netlify|cloudflare|heroku|railway|(^|[^a-z])aws([^a-z]|$)|gcloud|google[-_]?cloud|(^|[^a-z])gcp([^a-z]|$)|azure|kubernetes|(^|[^a-z])k8s|kubectl|docker|terraform|pulumi`, _text(server))
} else := ["a payments platform", "high", "so a prompt injection can move money or change billing"] if {
	regex.match(`stripe|paypal|braintree|adyen`, _text(server))
} else := ["a shell server", "high", "so a prompt injection can run any command through it"] if {
	regex.match(`desktop[-_]?commander|(^|[^a-z])shell|terminal|(^|[^a-z])ssh([^a-z]|$)`, _text(server))
} else := ["a server the scan cannot classify", "medium", "so a prompt injection can call whichever of its tools writes, deletes or sends"]
