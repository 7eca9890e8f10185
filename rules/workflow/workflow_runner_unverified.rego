# METADATA
# title: Agent job's runner cannot be placed from its label
# description: |
#   A job that runs the agent, or prepares the Copilot coding agent's
#   environment, runs on a label that is neither a GitHub-hosted image
#   (ubuntu-…, windows-…, macos-…) nor self-hosted, nor a known hosted runner
#   service, or on a runner group. That can be one of GitHub's larger runners
#   (fresh VM per job), an Actions Runner Controller scale set (ephemeral) or a
#   persistent self-hosted runner whose state carries over — the label does
#   not say which, so the finding is low and does not fail Disposable. Name
#   the organisation's labels in the policy file (self_hosted_runner_labels,
#   ephemeral_runner_labels) to settle it. For Copilot's setup steps GitHub
#   supports ubuntu larger runners and ARC scale sets and advises against
#   persistent runners.
# related_resources:
#   - ref: https://docs.github.com/en/actions/using-github-hosted-runners/about-larger-runners
#     description: GitHub — larger runners carry the names their organisation gives them
#   - ref: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners-with-actions-runner-controller/about-actions-runner-controller
#     description: GitHub — Actions Runner Controller scale sets (ephemeral runners)
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-the-development-environment-for-copilot-coding-agent
#     description: GitHub — runners for the Copilot coding agent
# custom:
#   id: workflow-runner-unverified
#   property: disposable
#   severity: low
#   remediation: List the organisation's runner labels in .sandbox-audit.yaml — params.ephemeral_runner_labels for larger runners and ARC scale sets, params.self_hosted_runner_labels for persistent machines — or run the agent on a GitHub-hosted image label.
package rules.workflow_runner_unverified

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	object.get(j, "runner", "") == "custom"
	not workflow.known_label(j)
	not object.get(j, "ephemeral", false) == true
	f := sa.finding(rego.metadata.chain(), workflow.runs_on_loc(j), sprintf("%s runs on%s, which is not a GitHub-hosted image label: a larger runner, an ARC scale set or a self-hosted runner, which the label alone cannot tell", [workflow.job_label(w, j), _labels(j)]))
}

_labels(j) := sprintf(" %s", [j.runs_on.value]) if is_string(j.runs_on.value)

else := " a custom runner"
