# METADATA
# title: Agent job runs on a persistent self-hosted runner
# description: |
#   A job that runs the agent, or prepares the Copilot coding agent's
#   environment, runs on a self-hosted runner that nothing marks as ephemeral:
#   the self-hosted label (or a label the policy file lists in
#   self_hosted_runner_labels) and no ephemeral or jit label (nor one listed
#   in ephemeral_runner_labels). Files, processes, caches and credentials the
#   agent leaves behind — or plants — are there for the next job, which may
#   hold other secrets. GitHub recommends ephemeral runners for Copilot's
#   setup steps and supports Actions Runner Controller scale sets for it.
#   Labels the label alone cannot place (a larger runner, an ARC scale set) are
#   reported by workflow-runner-unverified instead.
# related_resources:
#   - ref: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/about-self-hosted-runners#self-hosted-runner-security
#     description: GitHub — self-hosted runner security (persistent runners can be compromised)
#   - ref: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/autoscaling-with-self-hosted-runners#using-ephemeral-runners-for-autoscaling
#     description: GitHub — ephemeral runners
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-the-development-environment-for-copilot-coding-agent
#     description: GitHub — Copilot setup steps on self-hosted runners (ARC, ephemeral)
# custom:
#   id: workflow-self-hosted-runner
#   property: disposable
#   severity: high
#   remediation: Run agent jobs on GitHub-hosted runners or on ephemeral / just-in-time self-hosted runners (e.g. Actions Runner Controller scale sets) that are destroyed after one job; list their labels in the policy parameter ephemeral_runner_labels so the audit can see it.
package rules.workflow_self_hosted_runner

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.prepares_agent(w, j)
	workflow.persistent_self_hosted(j)
	f := sa.finding(rego.metadata.chain(), workflow.runs_on_loc(j), sprintf("%s runs on a self-hosted runner%s that is not ephemeral: state carries over to later jobs", [workflow.job_label(w, j), workflow.runs_on_text(j)]))
}
