# METADATA
# title: Lockfile removed
# description: |
#   The change deletes a lockfile. Every install after it resolves versions
#   afresh from the manifest's ranges, so what runs is no longer what was
#   reviewed, and integrity hashes that pinned each package are gone.
# related_resources:
#   - ref: https://docs.npmjs.com/cli/v10/commands/npm-ci
#     description: npm ci — installs exactly what the lockfile records
#   - ref: https://doc.rust-lang.org/cargo/guide/cargo-toml-vs-cargo-lock.html
#     description: Cargo — why commit Cargo.lock
# custom:
#   id: lockfile-removed
#   property: review
#   severity: medium
#   category: dependencies
#   remediation: Restore the lockfile (or regenerate it) and commit it; install with the lockfile enforced (npm ci, poetry install --sync, cargo build --locked).
package rules.lockfile_removed

import data.lib.sa

deny contains f if {
	some l in object.get(object.get(input, "deps", {}), "removed_lockfiles", [])
	f := sa.finding(rego.metadata.chain(), l, sprintf("%s was removed", [l.lockfile]))
}
