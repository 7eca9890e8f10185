# METADATA
# title: Copilot coding agent's firewall allows whole top-level domains or public suffixes
# description: |
#   The copilot environment's COPILOT_AGENT_FIREWALL_ALLOW_LIST_ADDITIONS holds
#   an entry that opens the firewall to everything ("*") or to every host under
#   a top-level domain ("*.com", "com") or a public suffix of the Public
#   Suffix List ("*.co.uk", "*.github.io", "*.herokuapp.com"): anyone can
#   register or publish a host there, so the agent can send the repository's
#   code and its tokens to a host an attacker picked, as if the firewall were
#   off. One owner's domain under a suffix (*.example.co.uk) is not broad.
# related_resources:
#   - ref: https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/customize-the-agent-firewall
#     description: GitHub — customizing the firewall for Copilot coding agent
# custom:
#   id: github-copilot-allowlist-broad
#   property: network
#   severity: medium
#   remediation: Replace the broad entry with the exact hosts the agent needs (registry.npmjs.org, pypi.org, your artifact server).
package rules.github_copilot_allowlist_broad

import data.lib.github
import data.lib.sa

deny contains f if {
	c := github.repo.copilot
	c.firewall_enabled == true
	broad := [e | some e in c.allow_list; _broad(e)]
	count(broad) > 0
	f := sa.finding(rego.metadata.chain(), github.repo, sprintf("%s lets the Copilot coding agent reach %s: anyone can own a host there", [github.label, concat(", ", broad)]))
}

_broad(e) if trim_space(e) == "*"

# A public suffix of more labels is as broad as a top-level domain: a
# two-label one (*.co.uk) or a domain whose owner hands out hosts to anyone
# (*.github.io, *.herokuapp.com: the Public Suffix List's private section).
# The collector marks the entries the list names.
_broad(e) if e in object.get(github.repo.copilot, "public_suffixes", [])

_broad(e) if {
	h := trim_prefix(trim_prefix(trim_space(lower(e)), "https://"), "http://")
	rest := trim_prefix(h, "*.")
	not contains(trim_suffix(rest, "/"), ".")
}
