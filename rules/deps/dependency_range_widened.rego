# METADATA
# title: Dependency requirement widened to an unpinned range
# description: |
#   The change turns a pinned requirement into a range (4.17.20 -> ^4.17.21,
#   ==4.2.3 -> >=4.2, =1.0.100 -> 1), or accepts any version at all (*,
#   latest, a bare name, a lower bound only). Whatever the registry publishes
#   next — including a compromised release — then installs without a change
#   anyone reviews, wherever the lockfile is not used.
# related_resources:
#   - ref: https://docs.npmjs.com/cli/v10/configuring-npm/package-json#dependencies
#     description: npm — dependency version ranges
#   - ref: https://peps.python.org/pep-0440/#version-specifiers
#     description: PEP 440 — version specifiers
#   - ref: https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html
#     description: Cargo — specifying dependencies (a bare version is a caret range)
# custom:
#   id: dependency-range-widened
#   property: review
#   severity: low
#   category: dependencies
#   remediation: Keep the exact version (or a bounded range) the project tested, and let the lockfile and a dependency bot move it in reviewed changes.
package rules.dependency_range_widened

import data.lib.deps
import data.lib.sa

deny contains f if {
	some w in object.get(object.get(input, "deps", {}), "widened_ranges", [])
	f := sa.finding(rego.metadata.chain(), w, message(w))
}

message(w) := sprintf("%s requirement on %s widened from %s to %s", [deps.eco_name(w.ecosystem), w.name, w.from, shown(w.to)]) if {
	object.get(w, "from", "") != ""
} else := sprintf("new %s requirement on %s accepts any version (%s)", [deps.eco_name(w.ecosystem), w.name, shown(w.to)])

shown(s) := s if s != ""

else := "no version given"
