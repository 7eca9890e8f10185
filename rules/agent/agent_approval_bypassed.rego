# METADATA
# title: Agent runs every action without approval
# description: |
#   The agent's approval mode is set to bypass (Claude Code bypassPermissions or
#   --dangerously-skip-permissions, Codex approval_policy never or
#   --dangerously-bypass-approvals-and-sandbox, Gemini CLI yolo, aider
#   --yes-always, the Copilot CLI --allow-all-tools, cursor-agent --force,
#   opencode --auto, or an OpenCode config that sets no ask or deny rule
#   for every command, whose default is allow — reported at medium, since
#   no one chose it in the file): every command, edit and tool call runs without a person
#   confirming it. Whatever a prompt injection in a file, issue or web page asks
#   for is carried out at once, so the only review left is whatever the sandbox
#   and the token still enforce. In a workflow no person approves anything
#   anyway: there the mode lifts the allowlist that otherwise denies every tool
#   call it does not name. google-github-actions/run-gemini-cli always runs
#   Gemini with --yolo; a tools.core list in its settings input that holds
#   no unrestricted shell (or an empty one: no built-in tool at all) is then
#   what limits it, and quiets this rule. Claude Code's managed setting
#   disableBypassPermissionsMode "disable" and Gemini CLI's
#   security.disableYoloMode turn the mode off and silence it too. Codex's
#   approval_policy never is reported only with sandbox_mode
#   danger-full-access: under its read-only default or workspace-write every
#   command stays confined and what the sandbox refuses fails instead of
#   asking.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission modes and disableBypassPermissionsMode
#   - ref: https://developers.openai.com/codex/agent-approvals-security
#     description: Codex — sandbox and approval policies
#   - ref: https://github.com/google-github-actions/run-gemini-cli/blob/main/action.yml
#     description: run-gemini-cli — runs gemini --yolo --prompt
#   - ref: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/configuration.md
#     description: Gemini CLI — approval modes, tools.core, security.disableYoloMode
#   - ref: https://opencode.ai/docs/permissions/
#     description: OpenCode — permissions, last matching rule wins, permissive defaults
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-approval-bypassed
#   property: review
#   severity: high
#   remediation: Use an approval mode that asks before commands and edits (Claude Code default or acceptEdits, Codex on-request or untrusted). In a workflow, drop the bypass flag and list the tools the task needs (--allowedTools, or tools.core for run-gemini-cli without an unrestricted run_shell_command). Reserve bypass for a disposable sandbox with no credentials and no network, and set disableBypassPermissionsMode "disable" in managed settings elsewhere.
package rules.agent_approval_bypassed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.approval_mode.value == "bypass"
	not _bypass_disabled(a)
	not _contained(a)
	not _opencode_default(a)
	f := sa.finding(rego.metadata.chain(), a.approval_mode, _message(a))
}

# OpenCode's default, left standing by a config that says nothing of every
# command, is reported at medium: no one chose it in the file, and a user's
# or the managed config, which the scan may not see, can set one.
deny contains f if {
	some a in agent.agents
	_opencode_default(a)
	not agent.in_workflow(a)
	f := object.union(sa.finding(rego.metadata.chain(), a.approval_mode, _message(a)), {"severity": "medium"})
}

_opencode_default(a) if {
	a.tool == "opencode"
	a.approval_raw.value == "(default)"
}

_message(a) := sprintf("%s runs with approval bypassed (%s): every tool call runs unchecked on a runner that holds the job's token and secrets", [agent.label(a), _raw(a)]) if {
	agent.in_workflow(a)
} else := sprintf("%s sets no ask or deny rule for every command, so OpenCode's default stands unless a user or managed config sets one: bash, edits and web fetches run without a person approving them", [agent.label(a)]) if {
	a.tool == "opencode"
	a.approval_raw.value == "(default)"
} else := sprintf("%s sets approval mode %s: every action runs without a person approving it", [agent.label(a), _raw(a)])

_raw(a) := sprintf("%q", [a.approval_raw.value]) if is_string(a.approval_raw.value)

else := "bypass"

# The same file, or Claude Code's managed settings, can forbid the mode.
_bypass_disabled(a) if a.bypass_disabled.value == true

_bypass_disabled(a) if {
	some m in agent.peers(a)
	m.scope == "managed"
	m.bypass_disabled.value == true
}

# Codex's approval_policy never under its sandbox (read-only when no
# sandbox_mode is set, or workspace-write) asks nothing, but every command
# still runs confined: what it cannot do there fails instead of asking. The
# sandbox rules judge the rest (agent-sandbox-network-open).
_contained(a) if {
	a.tool == "codex"
	a.approval_raw.value == "never"
	not _codex_full_access(a)
}

_codex_full_access(a) if agent.setting(a, "sandbox_mode").value == "danger-full-access"

# A list of the only built-in tools the agent has (Gemini tools.core, Claude
# --tools) with no unrestricted shell in it keeps bypass to those tools; an
# empty list leaves none.
_contained(a) if {
	is_object(a.tool_list)
	tools := [t.value | some t in object.get(a, "tools", []); is_string(t.value)]
	not _unrestricted_shell(tools)
}

_unrestricted_shell(tools) if {
	some t in tools
	t in {"run_shell_command", "ShellTool", "Bash", "Bash(*)", "PowerShell", "PowerShell(*)", "bash", "Shell", "shell", "run_shell_command(*)"}
}
