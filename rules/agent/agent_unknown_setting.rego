# METADATA
# title: Unknown key in agent settings
# description: |
#   A key the agent does not know is silently ignored: Claude Code, for one,
#   starts without a warning when a sandbox key is misspelt. Whoever wrote the
#   key believes a protection is on (a sandbox, a network allowlist, a deny
#   list) while the agent runs without it.
# related_resources:
#   - ref: https://github.com/anthropics/claude-code/issues/29596
#     description: Claude Code — unknown sandbox settings keys are silently ignored
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — available settings
#   - ref: https://developers.openai.com/codex/config-reference
#     description: Codex — configuration reference
# custom:
#   id: agent-unknown-setting
#   property: review
#   severity: medium
#   remediation: Correct the key's spelling and place against the agent's settings reference (or remove it), then confirm the setting took effect, e.g. with Claude Code's /status or /sandbox.
package rules.agent_unknown_setting

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	some k in object.get(a, "unknown_keys", [])
	f := sa.finding(rego.metadata.chain(), k, sprintf("%s has unknown key %q: it is silently ignored, so what it was meant to set does not apply", [agent.label(a), k.value]))
}
