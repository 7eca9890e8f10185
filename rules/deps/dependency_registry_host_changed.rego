# METADATA
# title: Dependency now resolves from another registry host
# description: |
#   The lockfile resolves a package from a different host than before: a
#   registry URL rewritten in package-lock.json, yarn.lock or Cargo.lock, or
#   an extra index added to a requirements file. This is how dependency
#   confusion lands: the same name served by a host the project never used,
#   often one the attacker controls, with a higher version winning.
# related_resources:
#   - ref: https://medium.com/@alex.birsan/dependency-confusion-4a5d60fec610
#     description: Alex Birsan — Dependency Confusion
#   - ref: https://pip.pypa.io/en/stable/cli/pip_install/#cmdoption-extra-index-url
#     description: pip — --extra-index-url merges indexes and takes the highest version
#   - ref: https://docs.npmjs.com/cli/v10/configuring-npm/package-lock-json#packages
#     description: npm — package-lock resolved URLs
# custom:
#   id: dependency-registry-host-changed
#   property: review
#   severity: high
#   category: dependencies
#   remediation: Restore the registry the project uses (regenerate the lockfile against it); if the new host is an intended mirror, scope it to the packages it serves (npm scoped registry, pip --index-url with a single index, Cargo [registries]).
package rules.dependency_registry_host_changed

import data.lib.deps
import data.lib.sa

deny contains f if {
	some p in deps.incoming
	prev := object.get(p, "previous_resolved_host", "")
	now := object.get(p, "resolved_host", "")
	prev != ""
	now != ""
	prev != now
	f := sa.finding(rego.metadata.chain(), p, sprintf("%s now resolves from %s instead of %s", [deps.label(p), now, prev]))
}
