# METADATA
# title: Agent runs every action without approval
# description: |
#   The agent's approval mode is set to bypass (Claude Code bypassPermissions,
#   Codex approval_policy never, Gemini CLI yolo): every command, edit and tool
#   call runs without a person confirming it. Whatever a prompt injection in a
#   file, issue or web page asks for is carried out at once, so the only review
#   left is whatever the sandbox and the token still enforce. Claude Code's
#   managed setting disableBypassPermissionsMode "disable" turns the mode off
#   and silences this rule.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission modes and disableBypassPermissionsMode
#   - ref: https://developers.openai.com/codex/agent-approvals-security
#     description: Codex — sandbox and approval policies
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-approval-bypassed
#   property: review
#   severity: high
#   remediation: Use an approval mode that asks before commands and edits (Claude Code default or acceptEdits, Codex on-request or untrusted). Reserve bypass for a disposable sandbox with no credentials and no network, and set disableBypassPermissionsMode "disable" in managed settings elsewhere.
package rules.agent_approval_bypassed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.approval_mode.value == "bypass"
	not _bypass_disabled(a)
	f := sa.finding(rego.metadata.chain(), a.approval_mode, sprintf("%s sets approval mode %s: every action runs without a person approving it", [agent.label(a), _raw(a)]))
}

_raw(a) := sprintf("%q", [a.approval_raw.value]) if is_string(a.approval_raw.value)

else := "bypass"

# The same file, or Claude Code's managed settings, can forbid the mode.
_bypass_disabled(a) if a.bypass_disabled.value == true

_bypass_disabled(a) if {
	some m in agent.peers(a)
	m.scope == "managed"
	m.bypass_disabled.value == true
}
