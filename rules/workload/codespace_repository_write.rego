# METADATA
# title: The codespace's token is granted write access to repositories
# description: |
#   customizations.codespaces.repositories asks GitHub Codespaces to widen the
#   codespace's GITHUB_TOKEN with write access to the repositories named
#   (contents write lets it push, workflows write change their workflows,
#   write-all every permission). The token sits in the codespace's
#   environment and git credential helper, where an agent working in the
#   codespace reads it, so a prompt injection in the work can write there
#   with it. Read access is not reported.
# related_resources:
#   - ref: https://docs.github.com/en/codespaces/managing-your-codespaces/managing-repository-access-for-your-codespaces
#     description: GitHub — managing access to other repositories within your codespace
# custom:
#   id: codespace-repository-write
#   property: credentials
#   severity: medium
#   remediation: Ask only read access to the other repositories, or none; let a workflow with its own narrowly scoped token publish to them after review instead of the codespace.
package rules.codespace_repository_write

import data.lib.sa
import data.lib.workload as wl

deny contains f if {
	some w in wl.judged_workloads
	some g in object.get(w, "repo_grants", [])
	count(g.write) > 0
	f := sa.finding(rego.metadata.chain(), g, sprintf("%s asks write access to %s (%s) for the codespace's token: an agent in the codespace can write there with it", [wl.label(w), g.repo, _what(g.write)]))
}

_what(write) := "every permission" if "*" in write
else := concat(", ", write)
