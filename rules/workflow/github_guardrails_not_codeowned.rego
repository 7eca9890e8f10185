# METADATA
# title: The agent's guardrails have no code owner
# description: |
#   Workflows, agent settings, MCP configs or devcontainers of the scan are
#   covered by no CODEOWNERS rule (or there is no CODEOWNERS file). These
#   files set what the agent may do and where; a change to them — which the
#   agent itself can propose — needs no review from the people who own them,
#   so the agent can widen its own limits.
# related_resources:
#   - ref: https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners
#     description: GitHub — about code owners
# custom:
#   id: github-guardrails-not-codeowned
#   property: review
#   severity: medium
#   remediation: Add CODEOWNERS rules for .github/workflows/, the agents' settings (.claude/, .codex/, .gemini/, .cursor/, .mcp.json) and .devcontainer/, and require code owner review on the default branch.
package rules.github_guardrails_not_codeowned

import data.lib.github
import data.lib.sa

deny contains f if {
	co := github.repo.code_owners
	count(co.unowned) > 0
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s: %s %s no code owner: %s", [github.label, _what(co), _verb(co.unowned), _list(co.unowned)]))
}

_what(co) := sprintf("%s leaves", [co.file]) if co.found

else := "there is no CODEOWNERS file, so"

_verb(u) := "these guardrail files" if count(u) > 1

else := "this guardrail file"

_list(u) := concat(", ", array.slice(u, 0, 5)) if count(u) <= 5

else := sprintf("%s and %d more", [concat(", ", array.slice(u, 0, 5)), count(u) - 5])
