# METADATA
# title: Agent's command sandbox never turned on
# description: |
#   Claude Code's Bash sandbox is off unless a settings file sets
#   sandbox.enabled, and Gemini CLI's sandbox is off unless tools.sandbox (or
#   the older top-level sandbox) is set, or --sandbox / GEMINI_SANDBOX turns
#   it on for a run (Qwen Code, its fork, likewise); none of the settings
#   files found for the tool does.
#   Every command the model runs then has the user's filesystem and network,
#   limited only by permission prompts. Settings files merge, so one file that
#   enables the sandbox (managed, user or project) quiets this rule for all of
#   them. Codex needs no such line: with no sandbox_mode it runs read-only.
#   The rule fires only when the settings let commands run without a person
#   (an allow rule of the shell tool, approval bypassed): otherwise each
#   command waits for a person who sees it, and the file says nothing of the
#   network, which stays unknown. In a devcontainer of the scan, or in the
#   container whose command starts the agent (a compose service, a script's
#   docker run), the container is the sandbox and its egress is judged there.
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
	"qwen": "tools.sandbox",
}

name := {"claude-code": "Claude Code", "gemini": "Gemini CLI", "qwen": "Qwen Code"}

# What staying off means, in each tool's words.
effect := {
	"claude-code": "the Bash sandbox stays off",
	"gemini": "commands run without a sandbox unless --sandbox or GEMINI_SANDBOX turns it on",
	"qwen": "commands run without a sandbox unless --sandbox turns it on",
}

deny contains f if {
	some a in agent.agents
	key := setting[a.tool]
	a.scope in scopes
	not agent.sets(a, "sandbox_enabled")
	_unattended(a)
	not _in_devcontainer
	not agent.in_container(a)
	f := sa.finding(rego.metadata.chain(), a, sprintf("%s does not set %s and no other %s settings file does: %s", [agent.label(a), key, name[a.tool], effect[a.tool]]))
}

# _unattended(a): a's settings let commands run without a person: an allow
# rule of the shell tool, or approval bypassed. With neither, each command
# waits for a person, who sees where it goes.
_unattended(a) if {
	some b in agent.peers(a)
	some r in object.get(b, "allow", [])
	is_string(r.value)
	agent.shell_rule(r.value)
}

_unattended(a) if {
	agent.effective(a, "approval_mode").value == "bypass"
	_bypass_outside_containers(a)
}

# A bypass flag on a container's command (claude
# --dangerously-skip-permissions in a script's docker run) runs the agent in
# that container, its sandbox: it leaves the settings' own runs attended.
_bypass_outside_containers(a) if {
	some b in agent.peers(a)
	not agent.in_container(b)
	object.get(b, ["approval_mode", "value"], "") == "bypass"
}

# In a devcontainer of the scan the container is the agent's sandbox: its
# egress is judged on the workload.
_in_devcontainer if {
	some w in object.get(input, "workloads", [])
	w.source == "devcontainer"
	object.get(w, "judged", false) == true
}
