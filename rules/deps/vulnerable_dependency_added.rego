# METADATA
# title: Vulnerable dependency version brought in
# description: |
#   The change adds a package, or moves one to a version, that a published
#   advisory in trivy's vulnerability database affects. An agent picks versions
#   from stale training data or from whatever resolves first; the reviewer needs
#   to see the advisory and the version that fixes it before the change lands.
#   The finding's severity is the advisory's.
# related_resources:
#   - ref: https://trivy.dev/latest/docs/scanner/vulnerability/
#     description: Trivy — vulnerability scanning of language packages
#   - ref: https://github.com/advisories
#     description: GitHub Advisory Database
# custom:
#   id: vulnerable-dependency-added
#   property: review
#   severity: high
#   category: dependencies
#   remediation: Move the package to the fixed version named in the finding (or a later one) and regenerate the lockfile; if no fix exists, choose another package or record a waiver with the reason.
package rules.vulnerable_dependency_added

import data.lib.deps
import data.lib.sa

severities := {"critical", "high", "medium", "low"}

deny contains f if {
	some p in deps.incoming
	some v in object.get(p, "vulnerabilities", [])
	sev := lower(object.get(v, "severity", ""))
	f := object.union(
		sa.finding(rego.metadata.chain(), p, sprintf("%s is affected by %s%s; %s", [deps.what(p), v.id, title(v), fix(v)])),
		{"severity": severity(sev)},
	)
}

severity(s) := s if {
	s in severities
} # unknown: the database has no rating, the advisory still applies

else := "medium"

title(v) := sprintf(" (%s)", [v.title]) if {
	object.get(v, "title", "") != ""
} else := ""

fix(v) := sprintf("fixed in %s", [v.fixed_version]) if {
	object.get(v, "fixed_version", "") != ""
} else := "no fixed version is known"
