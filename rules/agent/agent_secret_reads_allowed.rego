# METADATA
# title: Agent reads credential files without a prompt
# description: |
#   Claude Code reads files without asking when its approval mode does not ask
#   (bypass, auto) or an allow rule grants reads everywhere (Read, Read(**),
#   Read(~/**)), its Bash sandbox is off, and no deny or ask rule in any Claude
#   Code settings file covers .env files, ~/.aws or ~/.ssh. The model then takes
#   cloud keys, SSH keys and application secrets into its context, where a prompt
#   injection can make it write them into a commit, a comment or a web request.
#   To stay quiet on ordinary setups the rule fires only when reads are
#   auto-approved as above. An agent a workflow step starts reads the runner,
#   not a developer's home: which secrets reach it there is judged by the
#   workflow rules (workflow-agent-extra-secrets, workflow-agent-model-key-readable).
# related_resources:
#   - ref: https://docs.anthropic.com/en/docs/claude-code/iam
#     description: Claude Code — Read deny rules
#   - ref: https://code.claude.com/docs/en/settings
#     description: Claude Code — settings (permissions.deny example for .env)
#   - ref: https://genai.owasp.org/llmrisk/llm022025-sensitive-information-disclosure/
#     description: OWASP Top 10 for LLM Applications — LLM02 Sensitive Information Disclosure
# custom:
#   id: agent-secret-reads-allowed
#   property: credentials
#   severity: medium
#   remediation: Add Read(./.env), Read(./.env.*), Read(~/.aws/**) and Read(~/.ssh/**) to permissions.deny (in the project or managed settings), narrow broad Read allow rules, and turn the sandbox on; better still, keep credential files out of the agent's machine.
package rules.agent_secret_reads_allowed

import data.lib.agent
import data.lib.sa

# Paths that stand for each credential location; a deny rule that covers any
# of them counts, to keep false positives down.
targets := {
	".env": [".env", "app/.env"],
	"~/.aws": ["~/.aws/credentials", "/home/agent/.aws/credentials", "/root/.aws/credentials"],
	"~/.ssh": ["~/.ssh/id_ed25519", "/home/agent/.ssh/id_ed25519", "/root/.ssh/id_rsa"],
}

deny contains f if {
	some a in agent.agents
	a.tool == "claude-code"
	not agent.in_workflow(a)
	not _sandbox_on(a)
	loc := _trigger(a)
	open := [name | some name, paths in targets; not _covered(a, paths)]
	count(open) > 0
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s %s and no deny or ask rule covers %s: the agent can read these credentials", [agent.label(a), _how(loc), concat(", ", open)]))
}

# A helper rule because OPA evaluates a call inside `not` before negating:
# `not f(x).value == v` is undefined, not true, when f(x) is undefined.
_sandbox_on(a) if agent.effective(a, "sandbox_enabled").value == true

_trigger(a) := a.approval_mode if {
	a.approval_mode.value in {"bypass", "auto"}
} else := r if {
	r := [x | some x in object.get(a, "allow", []); _broad(x.value)][0]
}

_broad(rule) if {
	is_string(rule)
	some p in targets["~/.aws"]
	agent.reads(rule, p)
}

_how(loc) := sprintf("approves reads automatically (approval mode %s)", [loc.value]) if loc.value in {"bypass", "auto"}

else := sprintf("allows %q", [loc.value])

_covered(a, paths) if {
	some b in agent.peers(a)
	some r in array.concat(object.get(b, "deny", []), object.get(b, "ask", []))
	is_string(r.value)
	some p in paths
	agent.reads(r.value, p)
}
