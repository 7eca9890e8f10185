# METADATA
# title: Codex keeps the runner's sudo
# description: |
#   openai/codex-action runs with safety-strategy unsafe or read-only, so Codex
#   runs as the runner's default user, who has passwordless sudo on
#   GitHub-hosted runners. With sudo, procfs hands it the memory of every
#   process: the Responses API proxy holding openai-api-key and the runner
#   process holding every secret of the job — a read-only sandbox does not
#   stop that, as the action's own documentation shows. The default,
#   drop-sudo, or unprivileged-user keeps them out of reach. (On Windows the
#   action supports only unsafe.)
# related_resources:
#   - ref: https://github.com/openai/codex-action/blob/main/docs/security.md
#     description: openai/codex-action — protecting your OPENAI_API_KEY (drop-sudo, unprivileged-user)
#   - ref: https://github.com/openai/codex-action/blob/main/action.yml
#     description: openai/codex-action — safety-strategy input
# custom:
#   id: workflow-codex-sudo-kept
#   property: credentials
#   severity: high
#   remediation: Remove safety-strategy (drop-sudo is the default) or set unprivileged-user with a codex-user that has no sudo; run Codex on a Linux or macOS runner.
package rules.workflow_codex_sudo_kept

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	some st in object.get(j, "agent_steps", [])
	s := st.safety_strategy
	lower(trim_space(s.value)) in {"unsafe", "read-only"}
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s runs %s with safety-strategy %s: Codex keeps the runner's sudo and can read the API key and the job's secrets from memory", [workflow.job_label(w, j), st.uses, s.value]))
}
