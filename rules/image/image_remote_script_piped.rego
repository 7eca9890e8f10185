# METADATA
# title: Image build pipes a downloaded script into a shell
# description: |
#   RUN curl … | sh (or wget -O- … | bash) runs whatever the server returns at
#   build time, as root, with nothing checked: no pinned version, no checksum,
#   no signature, and nothing a reviewer could read in the pull request. A
#   compromised or hijacked download host changes the sandbox image silently.
#
#   Off by default: vendor installers over HTTPS (NodeSource, rustup, the
#   agents' own install scripts) are in nearly every sandbox image, and the
#   risk is the image's supply chain, not the running sandbox's properties;
#   enable it where your policy forbids unverified downloads.
# related_resources:
#   - ref: https://docs.docker.com/build/building/best-practices/#add-or-copy
#     description: Docker — Dockerfile best practices, fetching remote content
#   - ref: https://cwe.mitre.org/data/definitions/494.html
#     description: CWE-494 Download of code without integrity check
#   - ref: https://owasp.org/www-project-top-10-ci-cd-security-risks/CICD-SEC-03-Dependency-Chain-Abuse
#     description: OWASP Top 10 CI/CD Security Risks — dependency chain abuse
# custom:
#   id: image-remote-script-piped
#   property: review
#   severity: medium
#   default_mode: disabled
#   remediation: Download to a file, verify a pinned checksum or signature (ADD --checksum=sha256:… or sha256sum -c), then run it; better, install a pinned package from a distribution or language registry, or COPY a vendored, reviewed script.
package rules.image_remote_script_piped

import data.lib.image
import data.lib.sa

# The command text is not quoted: it may carry values the redactor did not
# recognise. The URL, stripped of credentials and query, names the source.
what(text) := sprintf("a script from %s", [image.url(text)]) if {
	image.url(text)
} else := "a downloaded script"

deny contains f if {
	some img in input.images
	some p in img.pipe_to_shell
	f := sa.finding(
		rego.metadata.chain(), p,
		sprintf("Dockerfile RUN pipes %s into a shell without checking it", [what(object.get(p, "value", ""))]),
	)
}
