# METADATA
# title: Agent state restored from an earlier run
# description: |
#   The job that runs the agent (or prepares the Copilot coding agent) restores
#   agent state an earlier run left — session history, memory, settings or
#   login under ~/.claude, ~/.codex, ~/.gemini, .aider*, ~/.copilot or
#   opencode's data directory — from an actions/cache, or an artifact of
#   another run (actions/download-artifact with run-id, gh run download).
#   What an earlier task read, and what a prompt injection in it planted,
#   carries over into this one: the sandbox is no longer created for the task
#   alone. A cache a pull request can write may poison the next run's agent.
# related_resources:
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/examples/pr-review-with-caching.yml
#     description: claude-code-action — session caching example (state carried between runs)
#   - ref: https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/caching-dependencies-to-speed-up-workflows#restrictions-for-accessing-a-cache
#     description: GitHub — who can read and write a cache
#   - ref: https://github.com/actions/download-artifact
#     description: actions/download-artifact — artifacts of other runs (run-id)
# custom:
#   id: workflow-agent-state-restored
#   property: disposable
#   severity: medium
#   remediation: Start every run from a clean agent state; pass what the next run must know as reviewed data (a committed file, a pull request comment), not as the agent's restored session or memory, and never from a cache or artifact an untrusted run could write.
package rules.workflow_agent_state_restored

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	some r in object.get(j, "state_restores", [])
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s runs the agent after restoring state from an earlier run (%s)", [workflow.job_label(w, j), workflow.short(r.value)]))
}
