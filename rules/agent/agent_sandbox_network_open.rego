# METADATA
# title: Gemini CLI's sandbox leaves the network open
# description: |
#   Gemini CLI's sandbox is on (tools.sandbox), but its default profiles keep
#   outbound traffic open: the macOS Seatbelt profile permissive-open allows
#   network, and the docker and podman sandboxes run on the runtime's default
#   network. Only a *-closed or *-proxied Seatbelt profile (SEATBELT_PROFILE),
#   a proxy (GEMINI_SANDBOX_PROXY_COMMAND) or container flags
#   (SANDBOX_FLAGS=--network=none) restrict it — none of which a settings file
#   can say. A prompt-injected command can still send the workspace and its
#   secrets anywhere. Reported once per project, at the settings file whose
#   sandbox setting wins. Qwen Code, a fork of Gemini CLI, shares the
#   sandbox and is judged the same way.
# related_resources:
#   - ref: https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/sandbox.md
#     description: Gemini CLI — sandbox profiles (permissive-open is the default) and SANDBOX_FLAGS
# custom:
#   id: agent-sandbox-network-open
#   property: network
#   severity: medium
#   remediation: Run Gemini CLI with a closed or proxied profile (SEATBELT_PROFILE=restrictive-closed or permissive-proxied with GEMINI_SANDBOX_PROXY_COMMAND) or a container sandbox on a network with default-deny egress (SANDBOX_FLAGS=--network=none, or an egress proxy), set where the CLI is started.
package rules.agent_sandbox_network_open

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.tool in {"gemini", "qwen"}
	not agent.in_workflow(a)
	on := agent.effective(a, "sandbox_enabled")
	on.value == true
	on == a.sandbox_enabled
	f := sa.finding(rego.metadata.chain(), on, sprintf("%s turns the sandbox on (%s), whose default profiles leave outbound network open", [agent.label(a), _mode(a)]))
}

_mode(a) := a.sandbox_mode.value if is_string(a.sandbox_mode.value)

else := "default runtime"
