# METADATA
# title: Agent commands inherit secret environment variables
# description: |
#   Codex builds the environment of every command it runs from the user's
#   environment (shell_environment_policy inherit = all by default) and drops
#   variables whose names contain KEY, SECRET or TOKEN. Setting
#   ignore_default_excludes = true turns that filter off, so API keys, cloud
#   credentials and GitHub tokens in the launching shell reach every command the
#   model writes, and any prompt injection can print or send them. A profile
#   inherits the top-level inherit setting of the same file.
# related_resources:
#   - ref: https://developers.openai.com/codex/config-reference
#     description: Codex — shell_environment_policy (inherit, ignore_default_excludes)
#   - ref: https://developers.openai.com/codex/agent-approvals-security
#     description: Codex — agent approvals and security
# custom:
#   id: agent-env-secrets-inherited
#   property: credentials
#   severity: high
#   remediation: Remove ignore_default_excludes (or set it false), and prefer inherit = "core" with include_only naming the few variables commands need; keep secrets out of the shell that starts the agent.
package rules.agent_env_secrets_inherited

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	a.env_ignore_default_excludes.value == true
	_inherits_all(a)
	f := sa.finding(rego.metadata.chain(), a.env_ignore_default_excludes, sprintf("%s sets ignore_default_excludes with the whole environment inherited: variables named *KEY*, *SECRET* and *TOKEN* reach every command", [agent.label(a)]))
}

_inherits_all(a) if agent.setting(a, "env_inherit_all").value == true

# Unset in the profile and at the top level of its file: the default is all.
_inherits_all(a) if not _inherit_set(a)

_inherit_set(a) if agent.setting(a, "env_inherit_all")
