# METADATA
# title: Agent may push without a prompt
# description: |
#   An allow rule lets the agent run git push without asking (Bash(git push:*),
#   Bash(git:*), Bash(*), bare Bash, Gemini run_shell_command(git), Cursor
#   Shell(git)) or call a GitHub MCP tool that writes commits (push_files,
#   create_or_update_file), and no deny or ask rule in any settings file of the
#   same tool holds it back. Work then leaves the sandbox as commits on a branch
#   — the default branch too, unless a ruleset protects it — without a person
#   looking first. Deny and ask rules merge across settings files, so a deny in
#   user or managed settings quiets this rule. An agent a workflow step
#   starts is not reported when no credential that reaches it can push: the
#   job's token cannot write contents (contents: read, or permissions unset
#   and the repository's default read, as scan --github reads it), the
#   agent action uses that token
#   (claude-code-action with github_token given; without it the action
#   uses the Claude app's token, which can), and every other secret it gets
#   is its model key, a setting, or an app token minted without contents
#   write. A push with the checkout's persisted credentials is the job's
#   token too. Any other secret may be a personal access token, and keeps
#   the finding.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules (allow, ask, deny) and their order
#   - ref: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets
#     description: GitHub — rulesets that require pull requests
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-can-push
#   property: review
#   severity: high
#   remediation: Remove the allow rule (or narrow it to commands that cannot push) and add Bash(git push:*) to permissions.ask or permissions.deny; let work leave through a pull request opened by a step outside the agent, and protect the default branch with a ruleset.
package rules.agent_can_push

import data.lib.agent
import data.lib.sa

commands := ["git push", "git push origin HEAD", "git push --force origin main"]

literals := [{"prefix": "git push", "contains": ""}]

mcp_tools := ["push_files", "create_or_update_file"]

deny contains f if {
	some a in agent.agents
	some r in object.get(a, "allow", [])
	is_string(r.value)
	g := agent.granted(a, r.value, commands, literals, mcp_tools)
	count(g) > 0
	not agent.workflow_cannot_write(a, "contents")
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q (%s) without a prompt and no deny or ask rule holds it back: the agent can push without review", [agent.label(a), r.value, concat(", ", sort({_what(x) | some x in g}))]))
}

_what(x) := "git push" if startswith(x, "git push")

else := split(x, "__")[2] if startswith(x, "mcp__")

else := x
