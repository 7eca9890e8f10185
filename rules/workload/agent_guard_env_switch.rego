# METADATA
# title: An environment switch turns the agent's own guard off
# description: |
#   The sandbox's environment sets a variable an agent documents as turning
#   its own isolation off: CODEX_UNSAFE_ALLOW_NO_SANDBOX=1 lets Codex run
#   commands with no sandbox of its own where it cannot set one up (inside a
#   container), instead of refusing, so the container is the only boundary
#   around what it runs; SANDBOX_USE_HOST_NETWORK=true puts the containers
#   OpenHands runs the agent's code in on the host's network. The switch
#   is set for every task, not for one decided run.
# related_resources:
#   - ref: https://github.com/openai/codex/issues/848
#     description: openai/codex — running without a sandbox inside containers (CODEX_UNSAFE_ALLOW_NO_SANDBOX)
#   - ref: https://docs.all-hands.dev/usage/configuration-options
#     description: OpenHands — sandbox configuration (use_host_network)
# custom:
#   id: agent-guard-env-switch
#   property: disposable
#   severity: medium
#   remediation: Unset the switch. Give the container what the agent's own sandbox needs (Landlock and seccomp for Codex; a user namespace or gVisor), or keep the container itself locked down — no host network, dropped capabilities, an egress allowlist — and record that it is the only boundary; run OpenHands' runtime containers on their own network.
package rules.agent_guard_env_switch

import data.lib.sa
import data.lib.workload as wl

what := {
	"codex-no-sandbox": "where Codex cannot set up its own sandbox (inside a container) it runs the agent's commands with none instead of refusing",
	"openhands-host-network": "OpenHands runs the agent's code in containers on the host's network",
}

deny contains f if {
	some w in wl.judged_workloads
	some e in object.get(w, "env", [])
	d := what[object.get(e, "switch", "")]
	f := sa.finding(rego.metadata.chain(), e, sprintf("%s sets %s: %s", [wl.label(w), e.name, d]))
}

deny contains f if {
	some img in object.get(input, "images", [])
	some e in object.get(img, "env", [])
	d := what[object.get(e, "switch", "")]
	f := sa.finding(rego.metadata.chain(), e, sprintf("image %s sets %s: %s", [img.file, e.name, d]))
}
