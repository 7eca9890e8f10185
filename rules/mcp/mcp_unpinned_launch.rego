# METADATA
# title: MCP server launched from an unpinned package
# description: |
#   The MCP server is started through a package launcher (npx -y, uvx, pipx,
#   bunx, docker run) without a fixed version: no version, @latest, a range, or
#   an image tag that is not a full release (latest, main, 1.0) instead of a
#   digest or a release tag such as v0.27.0. Every start fetches whatever the registry
#   serves at that moment and runs it as the user, with the user's credentials
#   and network, so one compromised or typosquatted release lands on every
#   machine at its next start.
# related_resources:
#   - ref: https://modelcontextprotocol.io/specification/2025-06-18/basic/security_best_practices
#     description: Model Context Protocol — security best practices (local server compromise)
#   - ref: https://docs.npmjs.com/cli/v10/commands/npx
#     description: npm — npx fetches and runs the package spec it is given
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP Top 10 CI/CD Security Risks — CICD-SEC-3 Dependency Chain Abuse
# custom:
#   id: mcp-unpinned-launch
#   property: review
#   severity: medium
#   remediation: Pin the exact version (npx -y pkg@1.4.2, uvx pkg==1.4.2) or the image digest (image@sha256:…), update it deliberately after review, or install the server once into the sandbox image and run the binary directly.
package rules.mcp_unpinned_launch

import data.lib.mcp
import data.lib.sa

deny contains f if {
	some s in mcp.servers
	launcher := object.get(s, "launcher", "")
	launcher != ""
	s.pinned == false
	f := sa.finding(rego.metadata.chain(), s, sprintf("%s launches %s through %s %s: each start runs whatever %s", [mcp.label(s), _what(s), launcher, _version(s), _source(s)]))
}

# A git source runs its branch's head; a package what the registry serves.
_source(s) := "the repository's branch holds" if startswith(object.get(s, "package", ""), "git+")
else := "the registry serves"

_what(s) := sprintf("%q", [p]) if {
	p := object.get(s, "package", "")
	p != ""
} else := sprintf("%q", [c]) if {
	c := object.get(s, "command", "")
	c != ""
} else := "its package"

_version(s) := "with no version" if object.get(s, "version", "") == ""

else := "at @latest" if object.get(s, "version", "") == "latest"

else := sprintf("at unpinned version %q", [s.version])
