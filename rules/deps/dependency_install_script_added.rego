# METADATA
# title: Dependency that runs code at install time brought in
# description: |
#   The change brings in a package that runs its own code when it is
#   installed: an npm install script (preinstall, install, postinstall, or a
#   native build), a pnpm package that requires a build, or a Python package
#   built from source (an sdist or VCS checkout runs setup.py or its build
#   backend). That code runs inside the sandbox with whatever it holds —
#   tokens, the checkout, network — before anyone runs the project.
# related_resources:
#   - ref: https://docs.npmjs.com/cli/v10/using-npm/scripts#life-cycle-scripts
#     description: npm — life cycle scripts run on install
#   - ref: https://pip.pypa.io/en/stable/reference/build-system/
#     description: pip — building a package from source runs its build backend
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP CI/CD Security Risks — dependency chain abuse
# custom:
#   id: dependency-install-script-added
#   property: review
#   severity: medium
#   category: dependencies
#   remediation: Check that the package needs its install step; install with scripts disabled (npm ci --ignore-scripts, pnpm onlyBuiltDependencies, pip --only-binary :all:) and allow builds only for reviewed packages.
package rules.dependency_install_script_added

import data.lib.deps
import data.lib.sa

deny contains f if {
	some p in deps.incoming
	object.get(p, "install_script", false) == true
	object.get(p, "previous_install_script", false) == false
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s runs %s when installed", [deps.what(p), kind(p)]))
}

kind(p) := "its build (setup.py or build backend)" if {
	p.ecosystem == "pypi"
} else := "an install script"
