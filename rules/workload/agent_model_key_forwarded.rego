# METADATA
# title: Agent's model credential forwarded into its sandbox
# description: |
#   The host's model credential (ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN,
#   OPENAI_API_KEY, GEMINI_API_KEY…) is forwarded into the agent's container
#   (devcontainer ${localEnv:…}, compose ${…}, a Kubernetes env from the
#   host's secret). The agent needs it to call its model, but whatever the
#   agent runs can read it, and a prompt injection can send a long-lived key
#   anywhere. Reported apart from other forwarded secrets (host-secret-forwarded),
#   at low severity: it lowers the credentials score without failing it.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/devcontainer
#     description: Claude Code — development containers and their credentials
#   - ref: https://github.com/openai/codex-action/blob/main/docs/security.md
#     description: openai/codex-action — keeping OPENAI_API_KEY in a proxy the agent cannot read
# custom:
#   id: agent-model-key-forwarded
#   property: credentials
#   severity: low
#   remediation: Give the sandbox a key with a spending limit made for it, short-lived where the provider allows (OAuth, cloud federation for Bedrock or Vertex AI), or route model calls through a proxy that holds the key outside the sandbox; never forward a personal long-lived key.
package rules.agent_model_key_forwarded

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	some e in w.env
	object.get(e, "from_host", "") != ""
	sa.model_key(object.get(e, "name", ""))
	f := sa.finding(
		rego.metadata.chain(), e,
		sprintf("%s forwards the host's %s into %s: the agent needs its model credential, but whatever it runs can read it", [wl.label(w), e.from_host, e.name]),
	)
}
