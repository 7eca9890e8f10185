# METADATA
# title: Agent keeps session history across tasks
# description: |
#   Codex history.persistence save-all writes every prompt to history.jsonl in
#   the Codex home directory, where it outlives the task: the next task (or
#   whoever reuses the machine) can read earlier prompts, which often hold
#   pasted tokens and internal details. Only an explicit setting fires, because
#   a sandbox that is thrown away after the task loses the file anyway.
# related_resources:
#   - ref: https://developers.openai.com/codex/config-reference
#     description: Codex — history.persistence
# custom:
#   id: agent-history-persisted
#   property: disposable
#   severity: low
#   remediation: Set history.persistence = "none" in the Codex config used inside sandboxes, or make sure the Codex home directory is discarded with the sandbox.
package rules.agent_history_persisted

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.history_persistence.value == "save-all"
	f := sa.finding(rego.metadata.chain(), a.history_persistence, sprintf("%s keeps every prompt in its history file (history.persistence save-all): it carries over to later tasks", [agent.label(a)]))
}
