# METADATA
# title: Claude Code's Bash sandbox never turned on
# description: |
#   Claude Code's Bash sandbox is off unless a settings file sets
#   sandbox.enabled, and none of the Claude Code settings files found does. Every
#   command the model runs then has the user's filesystem and network, limited
#   only by permission prompts. Settings files merge, so one file that enables
#   the sandbox (managed, user or project) quiets this rule for all of them.
#   Codex needs no such line: with no sandbox_mode it runs read-only.
# related_resources:
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandboxing (off by default, enable in settings)
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — settings files and precedence
# custom:
#   id: agent-sandbox-not-configured
#   property: network
#   severity: medium
#   remediation: Set sandbox.enabled true and sandbox.failIfUnavailable true in the project's .claude/settings.json (or in managed settings), with sandbox.network.allowedDomains naming only what the work needs.
package rules.agent_sandbox_not_configured

import data.lib.agent
import data.lib.sa

# Local settings are one developer's overrides, not the sandbox's definition.
scopes := {"project", "managed", "user"}

deny contains f if {
	some a in agent.agents
	a.tool == "claude-code"
	a.scope in scopes
	not agent.sets(a, "sandbox_enabled")
	f := sa.finding(rego.metadata.chain(), a, sprintf("%s does not set sandbox.enabled and no other Claude Code settings file does: the Bash sandbox stays off", [agent.label(a)]))
}
