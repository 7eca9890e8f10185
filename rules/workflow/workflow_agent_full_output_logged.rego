# METADATA
# title: Agent's whole transcript is written to the Actions log
# description: |
#   claude-code-action's show_full_output prints every message of the agent,
#   tool results included, into the job's log: the files it read, the
#   commands it ran and what they printed (env, ps, a config file), and API
#   answers with tokens in them. Anyone with read access to the repository
#   reads that log — everyone, for a public repository — and a prompt
#   injection only has to make the agent print a secret. Set to a literal
#   true; an expression (enabled on private repositories only, say) is left
#   to the reader.
# related_resources:
#   - ref: https://github.com/anthropics/claude-code-action/blob/main/docs/security.md
#     description: claude-code-action — full output security warning
#   - ref: https://docs.github.com/en/actions/monitoring-and-troubleshooting-workflows/monitoring-workflows/using-workflow-run-logs
#     description: GitHub — who can read workflow run logs
# custom:
#   id: workflow-agent-full-output-logged
#   property: credentials
#   severity: medium
#   remediation: Remove show_full_output (it is false by default). To debug, enable it in a private fork or read the execution file the action writes (outputs.execution_file) in a step that prints only the fields you need.
package rules.workflow_agent_full_output_logged

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some s in object.get(j, "agent_steps", [])
	s.tool == "claude-code"
	some key, v in object.get(s, "inputs", {})
	lower(key) == "show_full_output"
	is_string(v.value)
	lower(trim_space(v.value)) == "true"
	f := sa.finding(rego.metadata.chain(), v, sprintf("%s: %s sets show_full_output: true, so every message and tool result of the agent (files read, command output, API answers) goes into the Actions log that anyone who can read the repository can read", [workflow.job_label(w, j), object.get(s, "uses", "the agent step")]))
}
