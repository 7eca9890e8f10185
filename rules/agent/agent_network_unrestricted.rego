# METADATA
# title: Agent sandbox lets commands reach any host
# description: |
#   The agent's sandbox allows outbound network with no allowlist: Codex
#   network_access true with no domains, Cursor networkPolicy default allow, or
#   an allowlist entry that matches everything ("*", "*.com"). A prompt-injected
#   command can then send source code and credentials to any server and fetch
#   any payload. Codex's network_access is ignored when the same settings pin
#   sandbox_mode read-only, so that case stays quiet.
# related_resources:
#   - ref: https://developers.openai.com/codex/agent-approvals-security
#     description: Codex — network access in the sandbox
#   - ref: https://cursor.com/docs/reference/sandbox
#     description: Cursor — sandbox.json networkPolicy
#   - ref: https://code.claude.com/docs/en/sandboxing
#     description: Claude Code — sandbox network allowedDomains
# custom:
#   id: agent-network-unrestricted
#   property: network
#   severity: high
#   remediation: Deny outbound traffic by default and list only the hosts the work needs (package registries, the Git host), e.g. Cursor networkPolicy default deny with an allow list, Claude Code sandbox.network.allowedDomains, Codex network_access false or a permission profile with named domains.
package rules.agent_network_unrestricted

import data.lib.agent
import data.lib.sa

deny contains f if {
	some a in agent.agents
	loc := _open(a)
	f := sa.finding(rego.metadata.chain(), loc, sprintf("%s %s: sandboxed commands can reach any host", [agent.label(a), _why(loc)]))
}

deny contains f if {
	some a in agent.agents
	some d in object.get(a, "allowed_domains", [])
	_matches_everything(d.value)
	f := sa.finding(rego.metadata.chain(), d, sprintf("%s allows network domain %q, which matches every host", [agent.label(a), d.value]))
}

# One finding per settings file for the default itself.
_open(a) := a.network_default if {
	a.network_default.value == "allow"
} else := a.network_access if {
	a.network_access.value == true
	count(object.get(a, "allowed_domains", [])) == 0
	not _read_only(a)
}

# A profile without sandbox_mode takes the file's top-level one.
_read_only(a) if agent.setting(a, "sandbox_mode").value == "read-only"

_why(loc) := "sets the sandbox network default to allow" if loc.value == "allow"

else := "turns sandbox network access on with no allowed domains"

_matches_everything(v) if v in {"*", "*.*", "**", "0.0.0.0/0", "::/0"}

# A wildcard over a top-level domain, e.g. "*.com".
_matches_everything(v) if {
	is_string(v)
	startswith(v, "*.")
	rest := substring(v, 2, -1)
	rest != ""
	not contains(rest, ".")
}
