# METADATA
# title: Agent's command sandbox never turned on
# description: |
#   Claude Code's Bash sandbox is off unless a settings file sets
#   sandbox.enabled, and Gemini CLI's sandbox is off unless tools.sandbox (or
#   the older top-level sandbox) is set, or --sandbox / GEMINI_SANDBOX turns
#   it on for a run; none of the settings files found for the tool does.
#   Every command the model runs then has the user's filesystem and network,
#   limited only by permission prompts. Settings files merge, so one file that
#   enables the sandbox (managed, user or project) quiets this rule for all of
#   them. Codex needs no such line: with no sandbox_mode it runs read-only.
#   Agents that a workflow step starts are judged by the workflow rules: on a
#   runner the job is the sandbox.
# related_resources:
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandboxing (off by default, enable in settings)
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — settings files and precedence
#   - ref: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/sandbox.md
#     description: Gemini CLI — sandboxing (-s, GEMINI_SANDBOX, tools.sandbox)
# custom:
#   id: agent-sandbox-not-configured
#   property: network
#   severity: medium
#   remediation: Turn the sandbox on in the project's (or managed) settings — Claude Code sandbox.enabled true with sandbox.failIfUnavailable true and sandbox.network.allowedDomains naming only what the work needs; Gemini CLI tools.sandbox docker, podman, runsc or sandbox-exec with a proxied or closed profile.
package rules.agent_sandbox_not_configured

import data.lib.agent
import data.lib.sa

# Local settings are one developer's overrides, not the sandbox's definition.
scopes := {"project", "managed", "user"}

# How each tool's settings turn the sandbox on.
setting := {
	"claude-code": "sandbox.enabled",
	"gemini": "tools.sandbox",
}

name := {"claude-code": "Claude Code", "gemini": "Gemini CLI"}

# What staying off means, in each tool's words.
effect := {
	"claude-code": "the Bash sandbox stays off",
	"gemini": "commands run without a sandbox unless --sandbox or GEMINI_SANDBOX turns it on",
}

deny contains f if {
	some a in agent.agents
	key := setting[a.tool]
	a.scope in scopes
	not agent.sets(a, "sandbox_enabled")
	f := sa.finding(rego.metadata.chain(), a, sprintf("%s does not set %s and no other %s settings file does: %s", [agent.label(a), key, name[a.tool], effect[a.tool]]))
}
