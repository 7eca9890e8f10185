# METADATA
# title: Image build ADDs a file from a URL
# description: |
#   ADD <url> fetches a file at build time from a server that can change it at
#   any moment; unless the instruction pins a checksum, nothing checks that the
#   bytes baked into the sandbox image are the ones someone reviewed. The
#   Dockerfile best practices recommend against ADD for remote files.
# related_resources:
#   - ref: https://docs.docker.com/reference/dockerfile/#add---checksum
#     description: Dockerfile reference — ADD --checksum verifies a remote file
#   - ref: https://docs.docker.com/build/building/best-practices/#add-or-copy
#     description: Docker — Dockerfile best practices, ADD or COPY
#   - ref: https://cwe.mitre.org/data/definitions/494.html
#     description: CWE-494 Download of code without integrity check
# custom:
#   id: image-add-from-url
#   property: review
#   severity: low
#   remediation: Add --checksum=sha256:… to the ADD, or download with curl and verify a pinned checksum in the same RUN, or vendor the file into the repository and COPY it.
package rules.image_add_from_url

import data.lib.image
import data.lib.sa

source(v) := image.url(v) if {
	image.url(v)
} else := "a remote URL"

deny contains f if {
	some img in input.images
	some a in img.add_urls
	f := sa.finding(
		rego.metadata.chain(), a,
		sprintf("Dockerfile ADDs %s at build time", [source(object.get(a, "value", ""))]),
	)
}
