# METADATA
# title: Manifest dependencies changed without the lockfile
# description: |
#   The change edits the dependencies a manifest declares (package.json,
#   go.mod, pyproject.toml, Cargo.toml, Gemfile, composer.json, Pipfile) but
#   leaves the lockfile beside it as it was. The versions that will install
#   are then resolved later, on whatever machine runs the install, and
#   nobody reviewed them: the lockfile no longer describes the project.
# related_resources:
#   - ref: https://docs.npmjs.com/cli/v10/configuring-npm/package-lock-json
#     description: npm — package-lock.json
#   - ref: https://go.dev/ref/mod#go-sum-files
#     description: Go modules — go.sum
#   - ref: https://doc.rust-lang.org/cargo/guide/cargo-toml-vs-cargo-lock.html
#     description: Cargo — Cargo.toml vs Cargo.lock
# custom:
#   id: manifest-changed-without-lockfile
#   property: review
#   severity: medium
#   category: dependencies
#   remediation: Regenerate the lockfile with the package manager (npm install, go mod tidy, poetry lock, cargo update -p …) and commit it with the manifest so the resolved versions are reviewed.
package rules.manifest_changed_without_lockfile

import data.lib.sa

deny contains f if {
	some m in object.get(object.get(input, "deps", {}), "manifests_without_lockfile", [])
	f := sa.finding(rego.metadata.chain(), m, sprintf("%s changes its dependencies but %s was not updated", [m.manifest, m.lockfile]))
}
