# METADATA
# title: Commands can leave the agent's sandbox
# description: |
#   The sandbox is on but has a way around it. With Claude Code's
#   allowUnsandboxedCommands (true unless set to false), a command that fails
#   inside the sandbox can be rerun outside it through the dangerouslyDisableSandbox
#   escape hatch, with the user's full filesystem and network; under an approval
#   mode that does not ask, nobody sees it happen. Each excludedCommands entry
#   always runs outside the sandbox, and tools such as docker, kubectl or gh
#   reach far beyond it. Findings appear only where the sandbox is enabled (with
#   it off, agent-sandbox-disabled and agent-sandbox-not-configured apply).
# related_resources:
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandbox escape hatch and excluded commands
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — sandbox settings (allowUnsandboxedCommands, excludedCommands)
# custom:
#   id: agent-unsandboxed-commands
#   property: network
#   severity: medium
#   remediation: Set sandbox.allowUnsandboxedCommands false so commands that fail in the sandbox stay failed, and remove excludedCommands entries; give a tool that needs more access (docker, gh) an explicit, narrow allowance instead of running it outside the sandbox.
package rules.agent_unsandboxed_commands

import data.lib.agent
import data.lib.sa

# Claude Code: sandbox on, escape hatch not explicitly closed. The finding
# points at the escape-hatch setting when a file sets it, else at the line
# that enables the sandbox.
# Reported once per project: at the settings file whose sandbox.enabled wins.
deny contains f if {
	some a in agent.agents
	a.tool == "claude-code"
	on := agent.effective(a, "sandbox_enabled")
	on.value == true
	on == a.sandbox_enabled
	not _hatch_closed(a)
	loc := _hatch_loc(a, on)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("Claude Code's Bash sandbox is on but allowUnsandboxedCommands is %s: a command that fails in the sandbox can be rerun outside it", [_hatch_state(a)]))
}

# Other tools that state an escape hatch explicitly.
deny contains f if {
	some a in agent.agents
	a.tool != "claude-code"
	a.allow_unsandboxed.value == true
	not a.sandbox_enabled.value == false
	f := sa.finding(rego.metadata.chain(), a.allow_unsandboxed, sprintf("%s lets commands run outside its sandbox", [agent.label(a)]))
}

# Every excluded command runs unsandboxed, whatever the escape hatch says.
deny contains f if {
	some a in agent.agents
	_sandbox_on(a)
	some c in object.get(a, "excluded_commands", [])
	f := sa.finding(rego.metadata.chain(), c, sprintf("%s runs %q outside the sandbox (excluded command)", [agent.label(a), c.value]))
}

_hatch_closed(a) if agent.effective(a, "allow_unsandboxed").value == false

_hatch_loc(a, on) := loc if {
	loc := agent.effective(a, "allow_unsandboxed")
} else := on

_hatch_state(a) := "true" if agent.effective(a, "allow_unsandboxed").value == true

else := "not set (default true)"

_sandbox_on(a) if {
	a.tool == "claude-code"
	agent.effective(a, "sandbox_enabled").value == true
}

_sandbox_on(a) if {
	a.tool != "claude-code"
	not a.sandbox_enabled.value == false
}
