# METADATA
# title: Agent runs on a host, not in a sandbox
# description: |
#   The live audit found no container, user-space kernel or virtual machine
#   around the agent: it runs directly on a machine that other work shares
#   (a developer laptop, a long-lived self-hosted runner). Everything it does
#   lands on that machine and stays there.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#hardening-for-self-hosted-runners
#     description: GitHub — hardening for self-hosted runners
#   - ref: https://docs.anthropic.com/en/docs/claude-code/security
#     description: Claude Code — security and sandboxing
# custom:
#   id: live-no-isolation
#   property: disposable
#   severity: high
#   remediation: Run the agent in a sandbox created for the task — a microVM, a gVisor or Kata container, or an ephemeral VM — and remove it afterwards.
package rules.live_no_isolation

import data.lib.sa

deny contains f if {
	input.live.isolation.kind == "host"
	f := sa.finding(
		rego.metadata.chain(), input.live.isolation,
		sprintf("no container or VM found around the agent (%s confidence): it runs on the host itself", [input.live.isolation.confidence]),
	)
}
