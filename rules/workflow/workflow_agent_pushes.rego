# METADATA
# title: Agent job pushes with git
# description: |
#   A run step in the job that runs the agent calls git push. The agent's
#   changes leave the runner as commits on a branch chosen by the workflow
#   rather than through a pull request the agent action opens — and a pushed
#   branch that is the default branch, or one a deployment watches, is
#   published without review. The step also needs a write token in the same
#   job as the agent. A job that then opens a pull request itself (gh pr
#   create, peter-evans/create-pull-request, a github-script calling
#   pulls.create), or works on one it checked out (gh pr checkout), pushes
#   to the branch that pull request is reviewed from, which is not reported
#   unless the push names the default branch (main, master) or forces.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets requiring pull requests before merging
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: workflow-agent-pushes
#   property: review
#   severity: medium
#   remediation: Let the agent's changes leave through a pull request (the agent action's branch and PR flow, or a later job that opens a PR from an uploaded patch), and protect the target branches with a ruleset.
package rules.workflow_agent_pushes

import data.lib.sa
import data.lib.workflow

deny contains f if {
	some w in workflow.workflows
	some j in workflow.jobs(w)
	workflow.agent_job(w, j)
	some p in object.get(j, "pushes", [])
	not _reviewed(j, p)
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s runs an agent and pushes with git instead of opening a pull request (%v)", [workflow.job_label(w, j), workflow.short(p.value)]))
}

# The job opens a pull request from what it pushed, and the push neither
# names the default branch nor forces.
_reviewed(j, p) if {
	count(object.get(j, "opens_pr", [])) > 0
	not regex.match(`(?:^|[\s:/])(?:main|master)(?:$|\s)|\s(?:--force|-f|--force-with-lease)(?:$|\s|=)|\s\+\S`, p.value)
}
