# METADATA
# title: Agent's own sandbox turned off
# description: |
#   The agent's command sandbox is explicitly off: Claude Code sandbox.enabled
#   false, Codex sandbox_mode danger-full-access, Gemini CLI tools.sandbox false,
#   Cursor sandbox type insecure_none. Commands the model writes then run with
#   the user's full filesystem and network access, so nothing stops a prompt
#   injection from reading credentials and sending them anywhere. In a
#   workflow step only an agent whose sandbox is on by default counts (Codex:
#   openai/codex-action sandbox danger-full-access, codex
#   --dangerously-bypass-approvals-and-sandbox); turning off a sandbox that
#   is off anyway (Claude Code, Gemini CLI) changes nothing there.
# related_resources:
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandboxing
#   - ref: https://developers.openai.com/codex/concepts/sandboxing
#     description: Codex — sandbox modes
#   - ref: https://github.com/openai/codex-action/blob/main/action.yml
#     description: openai/codex-action — sandbox and permission-profile inputs
#   - ref: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/sandbox.md
#     description: Gemini CLI — sandboxing
#   - ref: https://cursor.com/docs/reference/sandbox
#     description: Cursor — sandbox.json reference
# custom:
#   id: agent-sandbox-disabled
#   property: network
#   severity: high
#   remediation: Turn the agent's sandbox on (Claude Code sandbox.enabled true, Codex workspace-write or read-only, Gemini tools.sandbox docker/podman/sandbox-exec, Cursor workspace_readwrite). Use full access only inside a disposable VM or container whose egress is already restricted.
package rules.agent_sandbox_disabled

import data.lib.agent
import data.lib.sa

off_modes := {"danger-full-access", "insecure_none", "false", "none", "off"}

deny contains f if {
	some a in agent.agents
	not _off_anyway(a)
	loc := _off(a)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s turns the agent's sandbox off (%s): commands run with the user's full filesystem and network access", [agent.label(a), _what(loc)]))
}

# One finding per settings file: the mode names it better than the boolean.
_off(a) := a.sandbox_mode if {
	is_string(a.sandbox_mode.value)
	lower(a.sandbox_mode.value) in off_modes
} else := a.sandbox_enabled if {
	a.sandbox_enabled.value == false
}

_what(loc) := sprintf("sandbox mode %s", [loc.value]) if is_string(loc.value)

else := "sandbox disabled"

# Claude Code's and Gemini CLI's sandboxes are off unless turned on: a
# workflow step that says false says what the default is.
_off_anyway(a) if {
	agent.in_workflow(a)
	a.tool in {"claude-code", "gemini", "qwen"}
}
