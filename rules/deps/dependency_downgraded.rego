# METADATA
# title: Dependency downgraded
# description: |
#   The change moves a package to an older version. Downgrades undo fixes,
#   including security fixes the database may not list yet, and are rarely
#   what a task asked for: an agent does it to make a build pass or because
#   its training data knows an older API.
# related_resources:
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP CI/CD Security Risks — dependency chain abuse
#   - ref: https://docs.npmjs.com/cli/v10/commands/npm-install
#     description: npm — install pins the versions the lockfile records
# custom:
#   id: dependency-downgraded
#   property: review
#   severity: low
#   category: dependencies
#   remediation: Keep the newer version and adapt the code to it; if the downgrade is needed, say why in the change and track the return to a current release.
package rules.dependency_downgraded

import data.lib.deps
import data.lib.sa

deny contains f if {
	some p in deps.incoming
	p.change == "downgraded"
	f := sa.finding(rego.metadata.chain(), p, deps.what(p))
}
