# METADATA
# title: Dependencies not matched against a vulnerability database
# description: |
#   The change brings in packages, but no vulnerability database could be read
#   (none found where trivy keeps it, or it failed to open), so none of them
#   was checked. This is not "no vulnerabilities": nothing is downloaded at
#   run time, and this finding says the check did not happen.
# related_resources:
#   - ref: https://trivy.dev/latest/docs/advanced/air-gap/
#     description: Trivy — providing the vulnerability database offline
#   - ref: https://trivy.dev/latest/docs/configuration/db/
#     description: Trivy — vulnerability database location
# custom:
#   id: dependency-vuln-matching-not-done
#   property: review
#   severity: info
#   category: dependencies
#   remediation: Provide trivy's database (trivy image --download-db-only, or copy a cache dir) and pass it with --db DIR or TRIVY_CACHE_DIR.
package rules.dependency_vuln_matching_not_done

import data.lib.deps
import data.lib.sa

deny contains f if {
	d := input.deps
	object.get(d, "vuln_matched", false) == false
	first := [p | some p in deps.incoming][0]
	f := sa.finding(rego.metadata.chain(), first, sprintf("package versions the change brings in: %d, none checked for vulnerabilities (database %s)", [count(deps.incoming), reason(d)]))
}

reason(d) := "missing" if {
	startswith(object.get(d, "db_status", ""), "missing")
} else := "unreadable"
