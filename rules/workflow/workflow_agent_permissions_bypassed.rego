# METADATA
# title: Agent in CI runs with its permission checks off
# description: |
#   The agent step turns off the agent's own guards: Claude Code
#   --permission-mode bypassPermissions or --dangerously-skip-permissions,
#   Codex sandbox danger-full-access or --dangerously-bypass-approvals-and-sandbox,
#   Gemini --yolo — as action inputs or on an agent CLI's run: line. Every tool call then runs unchecked on a runner that holds the
#   job's token and secrets, so the model's judgement — and whatever prompt
#   injection reaches it through issues, comments or files — is the only control.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/github-actions
#     description: Claude Code GitHub Actions — configuration and claude_args
#   - ref: https://github.com/openai/codex-action
#     description: openai/codex-action — sandbox input
#   - ref: https://developers.openai.com/codex/agent-approvals-security
#     description: Codex — sandbox and approvals
# custom:
#   id: workflow-agent-permissions-bypassed
#   property: review
#   severity: high
#   remediation: Remove the bypass flag; list the tools the task needs with --allowedTools (Claude) or keep Codex in workspace-write or read-only, and give the job no secrets and a read-only token if it must run unattended.
package rules.workflow_agent_permissions_bypassed

import data.lib.sa
import data.lib.workflow

# Lower-case marker -> how the message names it.
bypass_markers := {
	"bypasspermissions": "bypassPermissions",
	"dangerously-skip-permissions": "--dangerously-skip-permissions",
	"dangerously-bypass-approvals-and-sandbox": "--dangerously-bypass-approvals-and-sandbox",
	"danger-full-access": "danger-full-access",
	"--yolo": "--yolo",
	"approval-mode yolo": "--approval-mode yolo",
	"approval-mode=yolo": "--approval-mode yolo",
}

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some s in object.get(j, "agent_steps", [])
	loc := _bypass(s)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s runs %s with its permission checks off (%s)", [workflow.job_label(w, j), _agent(s), _marker(_text(loc))]))
}

# One finding per step, from the most specific fact.
_bypass(s) := s.permission_mode if {
	_has_marker(s.permission_mode.value)
} else := s.sandbox if {
	_has_marker(s.sandbox.value)
} else := s.args if {
	_has_marker(s.args.value)
} else := s if {
	_has_marker(object.get(s, "run", ""))
}

_agent(s) := s.uses if {
	is_string(s.uses)
	s.uses != ""
} else := sprintf("the %s CLI", [s.tool]) if {
	is_string(s.tool)
	s.tool != ""
} else := "the agent"

# The step itself stands for its run: command.
_text(loc) := loc.value if is_string(loc.value)

else := object.get(loc, "run", "")

_has_marker(v) if {
	is_string(v)
	some m, _ in bypass_markers
	contains(lower(v), m)
}

_marker(v) := [name | some m, name in bypass_markers; contains(lower(v), m)][0]
