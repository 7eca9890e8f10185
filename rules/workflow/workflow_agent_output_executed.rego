# METADATA
# title: The agent's output runs as code
# description: |
#   A run: script (or an actions/github-script script) has the runner expand
#   an output of an agent step — its final message, summary or structured
#   output, directly or through a job's outputs — into its code before it
#   runs. What the agent writes, and a prompt injection in what it read
#   decides that, then runs as commands on the runner with that job's token
#   and secrets, unreviewed: a quote or $( ) in the message is enough. Outputs
#   the action sets itself (conclusion, execution file, session id, branch
#   name) are not reported.
# related_resources:
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions#understanding-the-risk-of-script-injections
#     description: GitHub — understanding the risk of script injections
#   - ref: https://genai.owasp.org/llmrisk/llm052025-improper-output-handling/
#     description: OWASP Top 10 for LLM Applications — LLM05 Improper Output Handling
# custom:
#   id: workflow-agent-output-executed
#   property: review
#   severity: medium
#   remediation: Treat the agent's output as untrusted data. Pass it through the step's env and use it quoted ("$REVIEW") or as process.env.REVIEW in github-script, or have the agent write a file and post that file (gh pr comment --body-file).
package rules.workflow_agent_output_executed

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some x in object.get(j, "injections", [])
	x.source == "agent"
	f := sa.finding(rego.metadata.chain(), x, sprintf("%s expands ${{ %s }}, the agent's output, into a script: what the agent writes, which a prompt injection decides, runs as commands on the runner with the job's token", [workflow.job_label(w, j), x.expr]))
}
