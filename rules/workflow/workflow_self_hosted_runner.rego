# METADATA
# title: Agent workflow runs on a reused self-hosted runner
# description: |
#   A job of a workflow that runs or prepares an agent runs on a self-hosted
#   runner that is not marked ephemeral (no ephemeral or JIT label). The machine
#   keeps its state between jobs: files, caches, credentials and anything a
#   prompt-injected agent planted — a modified toolchain, a git hook, a cron job —
#   are there for the next job, which may hold other repositories' secrets.
# related_resources:
#   - ref: https://docs.github.com/en/actions/hosting-your-own-runners/managing-self-hosted-runners/about-self-hosted-runners
#     description: GitHub — self-hosted runner security
#   - ref: https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions
#     description: GitHub — hardening for self-hosted runners (ephemeral, just-in-time runners)
#   - ref: https://docs.github.com/en/copilot/customizing-copilot/customizing-the-development-environment-for-copilot-coding-agent
#     description: GitHub — Copilot coding agent on self-hosted runners (use ephemeral runners)
# custom:
#   id: workflow-self-hosted-runner
#   property: disposable
#   severity: high
#   remediation: Run agent jobs on GitHub-hosted runners or on ephemeral / just-in-time self-hosted runners (e.g. Actions Runner Controller) that are destroyed after one job; label them so the audit can see it.
package rules.workflow_self_hosted_runner

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	j.self_hosted == true
	not j.ephemeral == true
	loc := _loc(j)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s runs on a self-hosted runner%s that is not ephemeral: state carries over to later jobs", [workflow.job_label(w, j), _labels(j)]))
}

_loc(j) := j.runs_on if is_object(j.runs_on)

else := j

_labels(j) := sprintf(" (%s)", [j.runs_on.value]) if is_string(j.runs_on.value)

else := ""
