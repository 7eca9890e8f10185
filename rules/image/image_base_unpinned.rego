# METADATA
# title: Base image not pinned by digest
# description: |
#   A FROM line that names a tag, or no tag at all, gets whatever the registry
#   serves under that name at build time. Tags move: a compromised or simply
#   updated upstream image changes the sandbox without any change to review,
#   and two builds of one commit differ. The worst case, no tag or "latest",
#   floats across major versions; its message says so and should be treated as
#   medium. References to an earlier build stage and scratch are not images and
#   are skipped.
#
#   Off by default: a tag-pinned base image is build hygiene that image
#   linters already report, and it says nothing about whether the running
#   sandbox is disposable; enable it where your policy requires digests.
# related_resources:
#   - ref: https://docs.docker.com/build/building/best-practices/#pin-base-image-versions
#     description: Docker — pin base image versions by digest
#   - ref: https://docs.docker.com/reference/dockerfile/#from
#     description: Dockerfile reference — FROM image@digest
#   - ref: https://slsa.dev/spec/v1.0/requirements
#     description: SLSA — reproducible, pinned build inputs
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP Top 10 CI/CD Security Risks — dependency chain abuse
# custom:
#   id: image-base-unpinned
#   property: disposable
#   severity: low
#   default_mode: disabled
#   remediation: Pin every FROM by digest (FROM node:22-bookworm@sha256:…) and let a bot such as Dependabot or Renovate propose digest updates as reviewed pull requests.
package rules.image_base_unpinned

import data.lib.sa

stages(img) := {lower(b.stage) | some b in img.base_images; object.get(b, "stage", "") != ""}

# not_an_image: scratch, or a reference to an earlier stage of this Dockerfile.
not_an_image(_, b) if lower(b.ref) == "scratch"

not_an_image(img, b) if lower(b.ref) in stages(img)

case(b) := "is set by a build argument and has no digest, so any image can be substituted" if {
	contains(b.ref, "$")
} else := "has no tag or uses latest and no digest: every build may get a different image (floating latest: treat as medium)" if {
	object.get(b, "tag", "") in {"", "latest"}
} else := sprintf("is pinned only by tag %s, which can be moved to a different image", [b.tag])

deny contains f if {
	some img in input.images
	some b in img.base_images
	object.get(b, "pinned", false) == false
	object.get(b, "ref", "") != ""
	not not_an_image(img, b)
	f := sa.finding(
		rego.metadata.chain(), b,
		sprintf("Base image %s %s", [b.ref, case(b)]),
	)
}
