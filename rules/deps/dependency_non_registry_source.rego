# METADATA
# title: Dependency from outside a registry
# description: |
#   The change brings in a package from a git repository, a tarball URL or a
#   local path instead of a package registry. Such code never went through a
#   registry's publishing, its advisories and malware takedowns do not cover
#   it, and a branch or URL can serve different code tomorrow. Agents reach
#   for these when a name does not resolve, or when told to by a prompt.
# related_resources:
#   - ref: https://docs.npmjs.com/cli/v10/configuring-npm/package-json#git-urls-as-dependencies
#     description: npm — git URLs and tarballs as dependencies
#   - ref: https://pip.pypa.io/en/stable/topics/vcs-support/
#     description: pip — VCS requirements
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP CI/CD Security Risks — dependency chain abuse
# custom:
#   id: dependency-non-registry-source
#   property: review
#   severity: medium
#   category: dependencies
#   remediation: Use the registry release of the package; if the fork or local copy is intended, pin it to a full commit hash or checksum and record why.
package rules.dependency_non_registry_source

import data.lib.deps
import data.lib.sa

kinds := {"git": "a git repository", "tarball": "a tarball URL", "path": "a local path"}

deny contains f if {
	some p in deps.incoming
	kind := kinds[p.source]
	object.get(p, "previous_source", "") != p.source
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s comes from %s%s, not a registry", [deps.what(p), kind, deps.site(p)]))
}
