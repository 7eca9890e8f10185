# METADATA
# title: Copilot coding agent's firewall is off
# description: |
#   The copilot environment sets COPILOT_AGENT_FIREWALL_ENABLED to false: the
#   Copilot coding agent's runner reaches the whole internet, so whatever the
#   agent reads (an issue, a web page) can have it send the repository's code
#   and its tokens anywhere.
# related_resources:
#   - ref: https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/customize-the-agent-firewall
#     description: GitHub — customizing or disabling the firewall for Copilot coding agent
# custom:
#   id: github-copilot-firewall-off
#   property: network
#   severity: high
#   remediation: Remove COPILOT_AGENT_FIREWALL_ENABLED from the copilot environment (the firewall is on by default) and add only the hosts the agent needs to the allowlist.
package rules.github_copilot_firewall_off

import data.lib.github
import data.lib.sa

deny contains f if {
	github.repo.copilot.firewall_enabled == false
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s turns the Copilot coding agent's firewall off (COPILOT_AGENT_FIREWALL_ENABLED=false in the copilot environment): its runner reaches the whole internet", [github.label]))
}
