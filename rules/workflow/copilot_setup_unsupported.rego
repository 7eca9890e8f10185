# METADATA
# title: Copilot setup steps that Copilot ignores
# description: |
#   copilot-setup-steps.yml is honoured only for a single job named
#   copilot-setup-steps, only for its steps, permissions, runs-on, services,
#   snapshot and timeout-minutes keys, and only with timeout-minutes of at most
#   59. A job under another name, a larger timeout or another job key (the
#   collector lists them as ignored_keys, e.g. container, env, if) is silently
#   ignored, so setup — and any restriction it was meant to apply — does not
#   happen the way the file reads.
# related_resources:
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-the-development-environment-for-copilot-coding-agent
#     description: GitHub — customizing the Copilot coding agent's environment
# custom:
#   id: copilot-setup-unsupported
#   property: review
#   severity: low
#   remediation: Keep one job named copilot-setup-steps, with timeout-minutes of 59 or less and only the keys Copilot honours (steps, permissions, runs-on, services, snapshot, timeout-minutes).
package rules.copilot_setup_unsupported

import data.lib.sa
import data.lib.workflow

job_id := "copilot-setup-steps"

max_timeout := 59

deny contains f if {
	some w in workflow.workflows
	w.copilot_setup == true
	some j in workflow.jobs(w)
	object.get(j, "id", "") != job_id
	f := sa.finding(rego.metadata.chain(), j, sprintf("%s: Copilot runs only a job named %s, so this job's steps never run for the agent", [workflow.job_label(w, j), job_id]))
}

deny contains f if {
	some w in workflow.workflows
	w.copilot_setup == true
	some j in workflow.jobs(w)
	is_number(j.timeout_minutes.value)
	j.timeout_minutes.value > max_timeout
	f := sa.finding(rego.metadata.chain(), j.timeout_minutes, sprintf("%s sets timeout-minutes %v: Copilot accepts at most %v", [workflow.job_label(w, j), j.timeout_minutes.value, max_timeout]))
}

# Keys of the job that Copilot ignores, as the collector lists them.
deny contains f if {
	some w in workflow.workflows
	w.copilot_setup == true
	some j in workflow.jobs(w)
	some k in object.get(j, "ignored_keys", [])
	f := sa.finding(rego.metadata.chain(), k, sprintf("%s sets %s, which Copilot ignores in its setup steps", [workflow.job_label(w, j), k.value]))
}
