# METADATA
# title: Agent may merge or approve pull requests without a prompt
# description: |
#   An allow rule lets the agent merge or approve pull requests without asking:
#   gh pr merge, gh pr review --approve, gh api …/merge, a whole-CLI grant
#   (Bash(gh:*), Bash(*), bare Bash), or a GitHub MCP tool that merges or submits
#   reviews (merge_pull_request, pull request review tools, or the whole GitHub
#   server), and no deny or ask rule of the same tool holds it back. The agent's
#   own work can then reach the default branch with no person reviewing it — an
#   approval from the agent's token can even satisfy a required review.
#   An agent a workflow step starts is judged by the credentials that reach
#   it (as agent-can-push judges them): merging needs a token that writes
#   contents, approving one that writes pull requests, and the job's own
#   token approves only where the repository lets GitHub Actions approve
#   pull requests (off by default; read with scan --github). What none of
#   its credentials can do is not reported; approval alone through the job's
#   token, with that setting unknown, is reported at medium.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules (allow, ask, deny) and their order
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets that require reviews before merging
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-can-merge
#   property: review
#   severity: high
#   remediation: Remove the allow rule or narrow it (e.g. Bash(gh pr view:*), Bash(gh pr create:*)), deny Bash(gh pr merge:*), Bash(gh pr review:*), Bash(gh api:*) and mcp__github__merge_pull_request, and require a human review in a ruleset that the agent's token cannot bypass.
package rules.agent_can_merge

import data.lib.agent
import data.lib.sa

commands := [
	"gh pr merge",
	"gh pr merge 1 --squash --admin",
	"gh pr review --approve",
	"gh pr review 1 --approve",
	"gh api -X PUT repos/o/r/pulls/1/merge",
	"gh api repos/o/r/pulls/1/merge -X PUT",
]

literals := [
	{"prefix": "gh pr merge", "contains": ""},
	{"prefix": "gh pr review", "contains": "--approve"},
	{"prefix": "gh pr review", "contains": " -a"},
	{"prefix": "gh api", "contains": "merge"},
]

mcp_tools := [
	"merge_pull_request",
	"create_pull_request_review",
	"create_and_submit_pull_request_review",
	"submit_pending_pull_request_review",
	"pull_request_review_write",
]

deny contains f if {
	some a in agent.agents
	some r in object.get(a, "allow", [])
	is_string(r.value)
	g := agent.granted(a, r.value, commands, literals, mcp_tools)
	possible := {x | some x in g; _possible(a, x)}
	count(possible) > 0
	f := object.union(
		sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q (%s) without a prompt and no deny or ask rule holds it back: %s", [agent.label(a), r.value, concat(", ", sort({_what(x) | some x in possible})), _outcome(a, possible)])),
		_severity(a, possible),
	)
}

_merges(x) if startswith(x, "gh pr merge")

_merges(x) if startswith(x, "gh api")

_merges(x) if endswith(x, "merge_pull_request")

_possible(a, x) if {
	_merges(x)
	not agent.workflow_cannot_write(a, "contents")
}

_possible(a, x) if {
	not _merges(x)
	not _cannot_approve(a)
}

_cannot_approve(a) if agent.workflow_cannot_write(a, "pull-requests")

_cannot_approve(a) if {
	agent.workflow_only_job_token(a, "pull-requests")
	input.repository.actions.can_approve_pull_requests == false
}

# Only approval is left, and only through the job's token, whose right to
# approve the scan could not read.
_approval_unknown(a, possible) if {
	every x in possible {
		not _merges(x)
	}
	agent.workflow_only_job_token(a, "pull-requests")
	not input.repository.actions.can_approve_pull_requests == true
}

_severity(a, possible) := {"severity": "medium"} if _approval_unknown(a, possible)

else := {}

_outcome(a, possible) := "the agent can approve pull requests if the repository lets GitHub Actions approve them (merging needs contents write, which no credential of the agent has)" if {
	_approval_unknown(a, possible)
} else := "the agent can approve pull requests (merging needs contents write, which no credential of the agent has)" if {
	every x in possible {
		not _merges(x)
	}
} else := "the agent can merge or approve pull requests"

_what(x) := "gh pr merge" if startswith(x, "gh pr merge")

else := "gh pr review --approve" if startswith(x, "gh pr review")

else := "gh api …/merge" if startswith(x, "gh api")

else := split(x, "__")[2] if startswith(x, "mcp__")

else := x
