# METADATA
# title: Agent may run arbitrary code without a prompt
# description: |
#   An allow rule lets the agent run, without asking, a command that runs any
#   code it is given: bare Bash or Bash(*); an interpreter with nothing but
#   options fixed (Bash(python3:*), Bash(node:*), Bash(bash -c:*), Bash(sh:*));
#   find (its -exec runs any command); a wrapper that runs the next command
#   (Bash(env:*), Bash(xargs:*), Bash(timeout 60:*), Bash(sudo:*)); a runner
#   of any package or command (Bash(npx:*), Bash(uvx:*), Bash(uv run:*),
#   Bash(poetry run:*)). Every other command — git push, reads of credential
#   files, network calls — then runs through it unasked, so the allowlist and
#   the deny rules beside it stop meaning anything. Scoped rules stay quiet:
#   Bash(npm test:*), Bash(python -m pytest:*), Bash(uv run pytest:*),
#   Bash(npx prettier:*) run one tool (the project's own scripts, which the
#   agent must edit first, under its edit permissions). Quiet too when a deny or
#   ask rule covers the whole grant, when the agent's command sandbox is on (and
#   the command is not excluded from it), and in bypass mode, which
#   agent-approval-bypassed reports.
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — permission rules; prefix matching of Bash rules
#   - ref: https://gtfobins.github.io/
#     description: GTFOBins — programs that run arbitrary commands (find -exec, env, xargs, interpreters)
#   - ref: https://genai.owasp.org/llmrisk/llm062025-excessive-agency/
#     description: OWASP Top 10 for LLM Applications — LLM06 Excessive Agency
# custom:
#   id: agent-arbitrary-execution-allowed
#   property: review
#   severity: high
#   remediation: Replace the rule with the exact commands the task needs (Bash(python -m pytest:*), Bash(npm run lint:*)); keep interpreters, find, env, xargs and package runners behind a prompt (permissions.ask), or turn the agent's command sandbox on so what they run stays confined.
package rules.agent_arbitrary_execution_allowed

import data.lib.agent
import data.lib.sa

deny contains f if {
	some [i, j] in agent.lead_allows
	a := agent.agents[i]
	r := a.allow[j]
	why := agent.exec_reason(r.value)
	agent.unconfined(a, r.value)
	not agent.exec_held_back(a, r.value)
	f := sa.finding(rego.metadata.chain(), r, sprintf("%s allows %q without a prompt: %s, so any command runs through it unasked", [agent.label(a), r.value, why]))
}
